package dev.innet.sim.simulated;

import java.util.ArrayList;
import java.util.List;

/**
 * Which seeds a simulation test runs, from system properties, so every test replays and sweeps the
 * same way: {@code -Dinnet.sim.seed=N} replays seed N (the value a failure message printed), and
 * {@code -Dinnet.sim.seeds=K} runs K consecutive seeds starting there (a sweep).
 */
public final class Seeds {
    public static final String SEED_PROPERTY = "innet.sim.seed";
    public static final String COUNT_PROPERTY = "innet.sim.seeds";
    /** A sweep larger than this is a typo, not a plan. */
    public static final int MAX_COUNT = 1_000_000;

    private Seeds() {
    }

    /** The seed to run: {@code innet.sim.seed} if set, else {@code defaultSeed}. */
    public static long seed(long defaultSeed) {
        return Long.getLong(SEED_PROPERTY, defaultSeed);
    }

    /** {@link #seed} and the {@code innet.sim.seeds - 1} seeds after it (one seed unless a sweep is asked for). */
    public static List<Long> seeds(long defaultSeed) {
        long first = seed(defaultSeed);
        int count = Integer.getInteger(COUNT_PROPERTY, 1);
        if (count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException(COUNT_PROPERTY + " must be 1.." + MAX_COUNT + ": " + count);
        }
        List<Long> seeds = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            seeds.add(first + i);
        }
        return seeds;
    }
}
