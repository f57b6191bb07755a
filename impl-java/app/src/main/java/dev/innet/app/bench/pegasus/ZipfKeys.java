package dev.innet.app.bench.pegasus;

import dev.innet.rack.workload.KeyChooser;
import dev.innet.sim.RandomSource;
import java.util.Arrays;

/**
 * Keys drawn from a Zipf distribution with any exponent (the Pegasus paper's α = 0.9-1.2, §9.1; the rack's
 * own {@code ZipfianGenerator} follows YCSB and needs θ < 1): key i (0 = hottest) has probability
 * proportional to 1 / (i + 1)^α. Drawn by inverting the cumulative distribution, tabulated once per
 * (keys, α) and shared by every client. Ranks are not scrambled: the rack places key "user&lt;i&gt;" by a
 * consistent hash of its bytes, so a key's popularity says nothing about its server, as with the paper's
 * randomly generated keys.
 */
public final class ZipfKeys implements KeyChooser {
    private final double alpha;
    private final double[] cumulative;

    public ZipfKeys(int keys, double alpha) {
        if (keys < 1) {
            throw new IllegalArgumentException("a Zipf distribution needs at least one key, got " + keys);
        }
        if (!(alpha >= 0) || alpha > 10) {
            throw new IllegalArgumentException("Zipf exponent must be in [0, 10], got " + alpha);
        }
        this.alpha = alpha;
        this.cumulative = new double[keys];
        double sum = 0;
        for (int i = 0; i < keys; i++) {
            sum += Math.pow(i + 1, -alpha);
            cumulative[i] = sum;
        }
        for (int i = 0; i < keys; i++) {
            cumulative[i] /= sum;
        }
        cumulative[keys - 1] = 1.0; // no draw may fall past the last key through rounding
    }

    public int keys() {
        return cumulative.length;
    }

    public double alpha() {
        return alpha;
    }

    /** The probability of key {@code i} (0 = the hottest). */
    public double probability(int i) {
        return cumulative[i] - (i == 0 ? 0 : cumulative[i - 1]);
    }

    @Override
    public long next(RandomSource random) {
        int i = Arrays.binarySearch(cumulative, random.nextDouble());
        // binarySearch gives -(insertion point) - 1 when absent: the first key whose cumulative exceeds u
        return i >= 0 ? i : -i - 1;
    }
}
