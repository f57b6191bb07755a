package dev.innet.rack.workload;

import dev.innet.sim.Hashing;
import dev.innet.sim.RandomSource;

/**
 * Zipf-distributed ranks 0..n-1 (rank 0 the most popular) by the rejection-free method of Gray et al.,
 * "Quickly generating billion-record synthetic databases" (SIGMOD'94), the method YCSB's zipfian
 * generator uses; then scrambled by a fixed hash so that popular keys are spread over the key space
 * (and thus over servers), as YCSB's scrambled zipfian does. theta = 0 gives a uniform choice.
 */
public final class ZipfianGenerator implements KeyChooser {
    private final long items;
    private final double theta;
    private final double zetaN;
    private final double alpha;
    private final double eta;
    private final boolean scramble;

    public ZipfianGenerator(long items, double theta, boolean scramble) {
        this(items, theta, scramble, zeta(items, theta));
    }

    /**
     * With zeta(items, theta) given: for item counts too large to sum (YCSB's scrambled zipfian draws
     * from 10^10 items, with the zeta YCSB publishes as {@code ScrambledZipfianGenerator.ZETAN}).
     */
    public ZipfianGenerator(long items, double theta, boolean scramble, double zetaN) {
        if (items < 1) {
            throw new IllegalArgumentException("need at least one item");
        }
        if (theta < 0 || theta >= 1) {
            throw new IllegalArgumentException("theta must be in [0, 1): " + theta);
        }
        this.items = items;
        this.theta = theta;
        this.scramble = scramble;
        this.zetaN = zetaN;
        this.alpha = 1.0 / (1.0 - theta);
        double zeta2 = zeta(2, theta);
        this.eta = items < 2 ? 1.0 : (1 - Math.pow(2.0 / items, 1 - theta)) / (1 - zeta2 / zetaN);
    }

    private static double zeta(long n, double theta) {
        double sum = 0;
        for (long i = 1; i <= n; i++) {
            sum += 1.0 / Math.pow(i, theta);
        }
        return sum;
    }

    public long items() {
        return items;
    }

    /**
     * The same distribution over {@code newItems} items ({@code newItems >= items}), its zeta extended
     * by the new terms rather than summed again (how YCSB's zipfian follows a growing key space).
     */
    public ZipfianGenerator grownTo(long newItems) {
        if (newItems < items) {
            throw new IllegalArgumentException("a zipfian grows only: " + newItems + " < " + items);
        }
        double extended = zetaN;
        for (long i = items + 1; i <= newItems; i++) {
            extended += 1.0 / Math.pow(i, theta);
        }
        return new ZipfianGenerator(newItems, theta, scramble, extended);
    }

    /** A rank in 0..items-1 (after scrambling, an item index). */
    @Override
    public long next(RandomSource random) {
        double u = random.nextDouble();
        long rank;
        if (theta == 0) {
            rank = random.nextLong(items);
        } else {
            double uz = u * zetaN;
            if (uz < 1.0) {
                rank = 0;
            } else if (uz < 1.0 + Math.pow(0.5, theta)) {
                rank = Math.min(1, items - 1);
            } else {
                rank = Math.min(items - 1, (long) (items * Math.pow(eta * u - eta + 1, alpha)));
            }
        }
        return itemOfRank(rank);
    }

    /** The item a rank maps to (the identity without scrambling): rank 0 is the most popular item. */
    public long itemOfRank(long rank) {
        return scramble ? Math.floorMod(Hashing.fnv1a64(rank), items) : rank;
    }

}
