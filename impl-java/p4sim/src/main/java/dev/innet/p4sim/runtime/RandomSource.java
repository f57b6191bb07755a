package dev.innet.p4sim.runtime;

/** Randomness for the {@code random} extern, injected so simulations replay bit for bit. */
@FunctionalInterface
public interface RandomSource {
    /** A uniformly distributed value in [lo, hi] (unsigned, hi >= lo). */
    long between(long lo, long hi);

    static RandomSource seeded(long seed) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        return (lo, hi) -> {
            long span = hi - lo + 1;
            if (span <= 0) {
                return lo + r.nextLong() ;
            }
            return lo + r.nextLong(span);
        };
    }
}
