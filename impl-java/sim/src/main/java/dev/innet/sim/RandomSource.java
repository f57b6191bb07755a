package dev.innet.sim;

/**
 * Deterministic randomness for protocol code and the simulator: the only random source either may use.
 *
 * <p>{@link #fork(String)} derives an independent stream for a subsystem from this source's seed and
 * the subsystem's name, not from how many numbers have been drawn so far. A subsystem that draws one
 * more number therefore shifts only its own stream, and a change in one part of a run does not ripple
 * through every other part (FoundationDB and TigerBeetle do the same).
 */
public interface RandomSource {
    /** The seed this stream was built from (for logs and reproduction). */
    long seed();

    long nextLong();

    /** Uniform in {@code [0, bound)}; {@code bound > 0}. */
    long nextLong(long bound);

    /** Uniform in {@code [origin, bound)}; {@code origin < bound}. */
    default long nextLong(long origin, long bound) {
        if (origin >= bound) {
            throw new IllegalArgumentException("empty range [" + origin + ", " + bound + ")");
        }
        return origin + nextLong(bound - origin);
    }

    /** Uniform in {@code [0, bound)}; {@code bound > 0}. */
    default int nextInt(int bound) {
        return (int) nextLong(bound);
    }

    /** Uniform in {@code [0, 1)} with 53 bits of precision. */
    default double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /** True with probability {@code p} (0 never, 1 always). Always draws exactly one number, so the stream does not depend on {@code p}. */
    default boolean chance(double p) {
        if (!(p >= 0.0 && p <= 1.0)) {
            throw new IllegalArgumentException("probability out of [0,1]: " + p);
        }
        return nextDouble() < p;
    }

    default void nextBytes(byte[] out) {
        for (int i = 0; i < out.length; i += 8) {
            long word = nextLong();
            for (int j = i; j < Math.min(i + 8, out.length); j++) {
                out[j] = (byte) word;
                word >>>= 8;
            }
        }
    }

    /**
     * An independent stream for {@code subsystem}, derived from this stream's seed and the name only.
     * Each name may be forked once per source: two subsystems sharing a stream would be a hidden coupling.
     */
    RandomSource fork(String subsystem);
}
