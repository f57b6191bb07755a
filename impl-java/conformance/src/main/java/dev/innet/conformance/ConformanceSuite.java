package dev.innet.conformance;

import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.tracegen.TlcModel;
import dev.innet.tracegen.TlcSimulation;
import dev.innet.tracegen.TraceCase;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * A conformance suite of one protocol: spec behaviours (curated trace files, and behaviours TLC
 * generates from the protocol's conformance models) replayed on the implementation, one report line
 * each, then the spec-action coverage: the actions some trace replayed, and for every other action of
 * {@code Next} why not (never generated, or where replays stopped). Failing traces are written to the
 * output directory with a command that replays just that one.
 */
public final class ConformanceSuite {
    /** One named trace and how its replay ended. */
    public record Outcome(String name, List<SpecStep> trace, Replayer.Result result) {}

    /** The whole run: every outcome and the coverage. */
    public record Report(List<Outcome> outcomes, Set<String> specActions, Set<String> replayed,
            Map<String, String> notReplayedWhy) {
        public long failed() {
            return outcomes.stream().filter(o -> o.result() instanceof Replayer.Result.Failed).count();
        }

        public long passed() {
            return outcomes.stream().filter(o -> o.result() instanceof Replayer.Result.Passed).count();
        }
    }

    private final Path root;
    private final SpecConformance protocol;
    private final Supplier<ReplayTarget> target;
    private final Path outDir;

    /** The conform options that select this suite's protocol and target, for a failed trace's reproduce line. */
    private final String reproduceOptions;

    public ConformanceSuite(Path repositoryRoot, SpecConformance protocol, Supplier<ReplayTarget> target, Path outDir) {
        this(repositoryRoot, protocol, target, outDir, "");
    }

    /**
     * @param reproduceOptions the {@code ./innet conform} options that select the protocol and the target of this run
     *                         (e.g. {@code --protocol distcache --target bmv2}); the reproduce line of a failing trace
     *                         starts with them, so it replays the trace where it failed
     */
    public ConformanceSuite(Path repositoryRoot, SpecConformance protocol, Supplier<ReplayTarget> target, Path outDir,
            String reproduceOptions) {
        this.root = repositoryRoot;
        this.protocol = protocol;
        this.target = target;
        this.outDir = outDir;
        this.reproduceOptions = reproduceOptions.strip();
    }

    /** The one command that replays the kept trace {@code kept} as this run did. */
    String reproduceCommand(Path kept) {
        return "./innet conform " + (reproduceOptions.isEmpty() ? "" : reproduceOptions + " ") + "--simulate 0 --traces " + kept;
    }

    /** Behaviours TLC simulates on {@code model} (a model next to the protocol's spec). */
    public List<TraceCase> simulate(String model, int behaviours, int depth, long seed)
            throws IOException, InterruptedException {
        Path specDir = root.resolve(protocol.spec()).getParent();
        TlcSimulation.Result r = TlcSimulation.run(new TlcModel(specDir, model), root, behaviours, depth, seed,
                outDir.resolve("tlc").resolve(model + "-seed" + seed), Duration.ofMinutes(10));
        return r.cases();
    }

    /** Every {@code .trace} (curated) and {@code .json} (generated) case in {@code dir}, sorted by name. */
    public static List<Path> traceFiles(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".trace") || f.toString().endsWith(".json")).sorted().toList();
        }
    }

    /** Replays every case, printing a line each, then the coverage. */
    public Report run(Map<String, TraceCase> cases, PrintStream out) throws IOException {
        List<Outcome> outcomes = new ArrayList<>();
        for (var e : cases.entrySet()) {
            List<SpecStep> trace = SpecTraces.fromTraceCase(e.getValue());
            Replayer.Result r = Replayer.replay(protocol, target, trace);
            outcomes.add(new Outcome(e.getKey(), trace, r));
            out.printf("%-44s %4d steps  %s%n", e.getKey(), trace.size(), describe(r));
            if (r instanceof Replayer.Result.Failed) {
                Path kept = outDir.resolve("failed").resolve(e.getKey().replaceAll("[^A-Za-z0-9_.-]", "_") + ".json");
                Files.createDirectories(kept.getParent());
                e.getValue().write(kept);
                out.println("    kept: " + kept + "\n    reproduce: " + reproduceCommand(kept));
            }
        }
        Report report = coverage(outcomes);
        printCoverage(report, out);
        return report;
    }

    private Report coverage(List<Outcome> outcomes) throws IOException {
        Set<String> specActions = SpecActions.ofNext(Files.readString(root.resolve(protocol.spec())));
        Set<String> replayed = new TreeSet<>();
        Map<String, String> why = new TreeMap<>(protocol.notReplayable());
        Set<String> generated = new TreeSet<>();
        for (Outcome o : outcomes) {
            List<String> actions = Replayer.actions(o.trace());
            generated.addAll(actions);
            int done = switch (o.result()) {
                case Replayer.Result.Passed p -> actions.size();
                case Replayer.Result.Failed f -> f.step();
                case Replayer.Result.NotReplayed n -> {
                    why.putIfAbsent(n.action(), n.reason());
                    yield n.step();
                }
            };
            replayed.addAll(actions.subList(0, done));
        }
        replayed.remove("Init");
        for (String a : specActions) {
            if (!replayed.contains(a) && !why.containsKey(a)) {
                why.put(a, generated.contains(a) ? "generated, but every trace taking it stopped earlier"
                        : "no trace of this run takes it (the models' bounds or the seeds never enable it)");
            }
        }
        why.keySet().retainAll(specActions);
        why.keySet().removeAll(replayed);
        return new Report(outcomes, specActions, replayed, why);
    }

    private static void printCoverage(Report r, PrintStream out) {
        out.printf("%n%d traces: %d passed, %d failed, %d not fully replayed%n", r.outcomes().size(), r.passed(),
                r.failed(), r.outcomes().size() - r.passed() - r.failed());
        Set<String> covered = new TreeSet<>(r.replayed());
        covered.retainAll(r.specActions());
        out.printf("spec actions replayed: %d of %d (%.0f%%)%n", covered.size(), r.specActions().size(),
                100.0 * covered.size() / r.specActions().size());
        for (var e : r.notReplayedWhy().entrySet()) {
            out.printf("  not replayed: %-20s %s%n", e.getKey(), e.getValue());
        }
    }

    static String describe(Replayer.Result r) {
        return switch (r) {
            case Replayer.Result.Passed p -> "passed";
            case Replayer.Result.Failed f -> "FAILED at step " + f.step() + " (" + f.action() + "): " + f.message()
                    + (f.variable() == null ? "" : "; spec " + f.variable() + " = " + f.expected() + ", implementation "
                            + f.actual());
            case Replayer.Result.NotReplayed n -> "not replayed from step " + n.step() + " (" + n.action() + "): " + n.reason();
        };
    }
}
