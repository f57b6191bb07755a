package dev.innet.sim.simulated;

import java.io.PrintStream;
import java.util.Objects;

/**
 * Checks determinism itself (STYLE.md: run a seed twice and compare the event streams). A scenario
 * builds and runs a simulation from a builder it is handed; the check runs it twice with the same seed
 * and compares event-log hashes. On a mismatch it runs both again with text traces and reports the
 * first event where they part, which usually names the culprit directly.
 */
public final class DeterminismCheck {
    /** Builds a topology on {@code builder.build()}, runs it, and returns the finished simulation. */
    @FunctionalInterface
    public interface Scenario {
        Simulation run(Simulation.Builder builder);
    }

    private DeterminismCheck() {
    }

    /** Runs {@code scenario} twice with {@code seed}; returns the common hash or throws with the first divergence. */
    public static String assertReplaysIdentically(long seed, Scenario scenario, PrintStream header) {
        Simulation first = scenario.run(Simulation.builder(seed).out(header));
        Simulation second = scenario.run(Simulation.builder(seed).out(null));
        String a = first.eventLogHash();
        String b = second.eventLogHash();
        if (a.equals(b)) {
            return a;
        }
        throw new AssertionError("seed=" + seed + ": the same seed gave two different runs (" + first.eventCount()
                + " vs " + second.eventCount() + " events, hashes " + a + " vs " + b + ")\n"
                + firstDivergence(seed, seed, scenario));
    }

    /** Runs {@code scenario} with two seeds; throws if both give the same run (the seed is being ignored). */
    public static void assertSeedsDiverge(long seedA, long seedB, Scenario scenario) {
        if (seedA == seedB) {
            throw new IllegalArgumentException("two different seeds are needed");
        }
        String a = scenario.run(Simulation.builder(seedA).out(null)).eventLogHash();
        String b = scenario.run(Simulation.builder(seedB).out(null)).eventLogHash();
        if (a.equals(b)) {
            throw new AssertionError("seeds " + seedA + " and " + seedB + " gave identical runs (hash " + a
                    + "): randomness is not reaching the run");
        }
    }

    /** Reruns both seeds with traces and describes the first line where the traces differ. */
    static String firstDivergence(long seedA, long seedB, Scenario scenario) {
        StringBuilder traceA = new StringBuilder();
        StringBuilder traceB = new StringBuilder();
        scenario.run(Simulation.builder(seedA).out(null).trace(traceA));
        scenario.run(Simulation.builder(seedB).out(null).trace(traceB));
        String[] a = traceA.toString().split("\n", -1);
        String[] b = traceB.toString().split("\n", -1);
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            if (!Objects.equals(a[i], b[i])) {
                return "  first divergence at event " + (i + 1) + ":\n    run 1: " + a[i] + "\n    run 2: " + b[i]
                        + (i > 0 ? "\n    after: " + a[i - 1] : "");
            }
        }
        return a.length == b.length
                ? "  the traces agree line by line (the difference is in bytes the text lines do not show)"
                : "  one trace is a prefix of the other (" + a.length + " vs " + b.length + " lines)";
    }
}
