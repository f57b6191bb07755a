package dev.innet.sim.simulated;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

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

    /** The line a replay program prints for {@link #hashInFreshJvm}. */
    public static final String HASH_LINE_PREFIX = "event-log-hash=";

    /**
     * Runs {@code mainClass} in a new JVM with this JVM's class path and returns the event-log hash it
     * prints (a line starting with {@link #HASH_LINE_PREFIX}). Replaying in the same JVM cannot see
     * nondeterminism that is stable within a process (identity hashes of enum constants and classes,
     * static state initialised once), and a failure from CI is replayed in another process, so the
     * promise to check is: same seed, same run, in any JVM.
     */
    public static String hashInFreshJvm(String mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new AssertionError("replay in a fresh JVM failed: " + command + "\n" + output);
            }
            return output.lines().filter(l -> l.startsWith(HASH_LINE_PREFIX)).findFirst()
                    .map(l -> l.substring(HASH_LINE_PREFIX.length()).strip())
                    .orElseThrow(() -> new AssertionError("no " + HASH_LINE_PREFIX + " line from " + mainClass + ":\n" + output));
        } catch (IOException e) {
            throw new UncheckedIOException("starting a JVM for " + mainClass, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while replaying in a fresh JVM", e);
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
