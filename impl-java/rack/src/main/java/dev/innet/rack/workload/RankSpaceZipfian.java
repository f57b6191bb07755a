package dev.innet.rack.workload;

import dev.innet.sim.Hashing;
import dev.innet.sim.RandomSource;

/**
 * Zipf ranks drawn over a rank space larger than the key count, then hashed onto the keys: how YCSB's
 * scrambled zipfian chooses keys (ranks over 10^10 items, zeta 26.469 for theta 0.99, then a hash modulo
 * the record count). The hottest key is then rarer than with a zipfian over the keys themselves (3.8%
 * instead of 6.5% for 10^6 keys), and ranks beyond the key count fold back onto all keys as a near-uniform
 * background. Ranks by the method of Gray et al. (SIGMOD'94), as {@link ZipfianGenerator}.
 */
public final class RankSpaceZipfian implements KeyChooser {
    /** YCSB's rank space for its scrambled zipfian. */
    public static final long YCSB_RANK_SPACE = 10_000_000_000L;

    private final long keys;
    private final long ranks;
    private final double theta;
    private final double zetaN;
    private final double alpha;
    private final double eta;

    public RankSpaceZipfian(long keys, long ranks, double theta) {
        if (keys < 1 || ranks < 2 || !(theta > 0) || theta >= 1) {
            throw new IllegalArgumentException("need keys >= 1, ranks >= 2, theta in (0, 1)");
        }
        this.keys = keys;
        this.ranks = ranks;
        this.theta = theta;
        this.zetaN = zeta(ranks, theta);
        this.alpha = 1.0 / (1.0 - theta);
        this.eta = (1 - Math.pow(2.0 / ranks, 1 - theta)) / (1 - zeta(2, theta) / zetaN);
    }

    /**
     * sum_{k=1..n} k^-theta: exactly up to 10^6 terms, beyond by Euler-Maclaurin (integral, end-point and
     * first derivative corrections; the error is below 1e-12 for these exponents).
     */
    public static double zeta(long n, double theta) {
        long exact = Math.min(n, 1_000_000L);
        double sum = 0;
        for (long k = 1; k <= exact; k++) {
            sum += Math.pow(k, -theta);
        }
        if (n > exact) {
            double m = exact + 1;
            double nn = n;
            sum += (Math.pow(nn, 1 - theta) - Math.pow(m, 1 - theta)) / (1 - theta)
                    + (Math.pow(m, -theta) + Math.pow(nn, -theta)) / 2
                    + theta / 12 * (Math.pow(m, -theta - 1) - Math.pow(nn, -theta - 1));
        }
        return sum;
    }

    /** The normalising constant of the rank distribution (26.469 for YCSB's 10^10 ranks at 0.99). */
    public double zeta() {
        return zetaN;
    }

    @Override
    public long next(RandomSource random) {
        double u = random.nextDouble();
        double uz = u * zetaN;
        long rank;
        if (uz < 1.0) {
            rank = 0;
        } else if (uz < 1.0 + Math.pow(0.5, theta)) {
            rank = 1;
        } else {
            rank = Math.min(ranks - 1, (long) (ranks * Math.pow(eta * u - eta + 1, alpha)));
        }
        return itemOfRank(rank);
    }

    /** The key a rank lands on: rank 0 is the most popular key. */
    public long itemOfRank(long rank) {
        return Math.floorMod(Hashing.fnv1a64(rank), keys);
    }
}
