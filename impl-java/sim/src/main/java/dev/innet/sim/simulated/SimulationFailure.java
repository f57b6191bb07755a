package dev.innet.sim.simulated;

/**
 * A run broke a rule: a node threw, a check failed, a bound was exceeded. The message always starts
 * with the seed, so any failure can be replayed (docs/simulator.md, "Reproducing a failure").
 */
public final class SimulationFailure extends AssertionError {
    private final long seed;

    SimulationFailure(long seed, String message, Throwable cause) {
        super(message, cause);
        this.seed = seed;
    }

    public long seed() {
        return seed;
    }
}
