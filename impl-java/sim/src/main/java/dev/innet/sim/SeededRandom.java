package dev.innet.sim;

import java.util.TreeSet;

/**
 * xoshiro256** (Blackman and Vigna), seeded through SplitMix64: fast, 256 bits of state, and, unlike
 * {@code java.util.Random}, no hidden global state and a specified output we control across JDK versions.
 * Not thread-safe: each node or subsystem owns its own fork.
 */
public final class SeededRandom implements RandomSource {
    private final long seed;
    private long s0;
    private long s1;
    private long s2;
    private long s3;
    /** Names already forked: forking one twice would give two subsystems the same numbers. */
    private final TreeSet<String> forked = new TreeSet<>();

    public SeededRandom(long seed) {
        this.seed = seed;
        long x = seed;
        s0 = Hashing.splitMix64(x += GOLDEN_GAMMA);
        s1 = Hashing.splitMix64(x += GOLDEN_GAMMA);
        s2 = Hashing.splitMix64(x += GOLDEN_GAMMA);
        s3 = Hashing.splitMix64(x + GOLDEN_GAMMA);
    }

    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

    @Override
    public long seed() {
        return seed;
    }

    @Override
    public long nextLong() {
        long result = Long.rotateLeft(s1 * 5, 7) * 9;
        long t = s1 << 17;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = Long.rotateLeft(s3, 45);
        return result;
    }

    @Override
    public long nextLong(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive: " + bound);
        }
        // Rejection sampling on 63-bit draws: no modulo bias, same method as java.util.SplittableRandom.
        long m = bound - 1;
        long r = nextLong() >>> 1;
        if ((bound & m) == 0) {
            return r & m;
        }
        for (long u = r; u - (r = u % bound) + m < 0; u = nextLong() >>> 1) {
            // retry: u fell in the incomplete last block
        }
        return r;
    }

    @Override
    public RandomSource fork(String subsystem) {
        if (subsystem == null || subsystem.isEmpty()) {
            throw new IllegalArgumentException("subsystem name required");
        }
        if (!forked.add(subsystem)) {
            throw new IllegalStateException("random stream '" + subsystem + "' forked twice from seed " + seed
                    + "; give each subsystem its own name");
        }
        return new SeededRandom(Hashing.splitMix64(seed ^ Hashing.splitMix64(Hashing.fnv1a64(subsystem))));
    }



    @Override
    public String toString() {
        return "SeededRandom[seed=" + seed + "]";
    }
}
