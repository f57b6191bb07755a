package dev.innet.verify.mutate;

import dev.innet.cli.Cli;
import dev.innet.verify.ToolProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./innet mutate}: the mutation gate (docs/verification.md). Seeds each catalogued single-line bug,
 * one at a time, into a scratch copy of the committed tree, runs every layer that can see it, and reports
 * which layers catch it. A layer's verdict counts only if the layer passes on the clean tree first.
 */
@Command(name = "innet mutate", sortOptions = false, usageHelpAutoWidth = true,
        description = "Seeds each catalogued bug (mutate/catalogue.txt) into a scratch worktree of HEAD and reports "
                + "which layers catch it: spec, ivy, stf, unit, campaign, conformance, jepsen.")
public final class MutateMain implements Callable<Integer> {
    static final int EXIT_GATE_MET = 0;
    static final int EXIT_GATE_MISSED = 1;

    @Spec
    CommandSpec spec;

    @Option(names = "--catalogue", paramLabel = "FILE", description = "the bug catalogue (default: mutate/catalogue.txt)")
    Path catalogueFile;

    @Option(names = "--only", split = ",", paramLabel = "ID", description = "only these bugs")
    List<String> only = List.of();

    @Option(names = "--layers", split = ",", paramLabel = "LAYER", description = "only these layers (default: all)")
    List<String> layerNames = List.of();

    @Option(names = "--check", description = "only check that every edit of the catalogue finds its line in HEAD; run nothing")
    boolean checkOnly;

    @Option(names = "--timeout", paramLabel = "MINUTES", description = "limit per command (default: ${DEFAULT-VALUE})")
    int timeoutMinutes = 25;

    @Option(names = "--out", paramLabel = "DIR", description = "where the report and logs go (default: results/mutate/<time>)")
    Path outDir;

    @Option(names = "--min-layers", paramLabel = "N", description = "the gate: layers each bug must be caught by (default: ${DEFAULT-VALUE})")
    int minLayers = 2;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    private final PrintStream out;

    MutateMain(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(Cli.run("innet mutate", new MutateMain(System.out), args, System.out, System.err));
    }

    /** One cell of the report. */
    enum Outcome {
        CAUGHT("caught"), MISSED("missed"), NOT_APPLICABLE("n/a"), TIMED_OUT("timeout"), UNDECIDED("unknown"),
        BASELINE_FAILS("baseline fails"), NOT_RUN("not run"), DOES_NOT_COMPILE("does not compile");

        final String label;

        Outcome(String label) {
            this.label = label;
        }
    }

    @Override
    public Integer call() throws Exception {
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        Catalogue catalogue;
        List<Layer> layers;
        try {
            catalogue = Catalogue.read(catalogueFile != null ? catalogueFile : root.resolve("mutate/catalogue.txt"));
            layers = layerNames.isEmpty() ? List.of(Layer.values()) : layerNames.stream().map(Layer::byLabel).toList();
            for (String id : only) {
                if (catalogue.bugs().stream().noneMatch(b -> b.id().equals(id))) {
                    throw new IllegalArgumentException("--only: no bug '" + id + "' in the catalogue");
                }
            }
            if (timeoutMinutes < 1 || minLayers < 1) {
                throw new IllegalArgumentException("--timeout and --min-layers must be at least 1");
            }
        } catch (IllegalArgumentException | IOException e) {
            throw Cli.usageError(spec, e.getMessage());
        }
        List<Catalogue.Bug> bugs = catalogue.bugs().stream().filter(b -> only.isEmpty() || only.contains(b.id())).toList();
        try {
            checkAgainst(root, bugs);
        } catch (IllegalArgumentException e) {
            throw Cli.usageError(spec, "the catalogue does not match the code: " + e.getMessage());
        }
        if (checkOnly) {
            out.println("innet mutate: " + bugs.size() + " bugs, every edit finds its line");
            return EXIT_GATE_MET;
        }
        Path results = outDir != null ? outDir.toAbsolutePath()
                : root.resolve("results/mutate").resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss")));
        Files.createDirectories(results);
        Path tree = ScratchTree.fresh(root, root.resolve(".cache/mutate/tree"));
        Map<String, Map<Layer, Outcome>> table = new LinkedHashMap<>();
        Map<String, Boolean> baselines = new LinkedHashMap<>();
        for (Catalogue.Bug bug : bugs) {
            Map<Layer, Outcome> row = new EnumMap<>(Layer.class);
            table.put(bug.id(), row);
            out.println("innet mutate: " + bug.id() + ": " + bug.what());
            for (Layer layer : Layer.values()) {
                if (!layer.sees(bug.kinds())) {
                    row.put(layer, Outcome.NOT_APPLICABLE);
                } else if (!layers.contains(layer)) {
                    row.put(layer, Outcome.NOT_RUN);
                }
            }
            if (bug.kinds().contains(Catalogue.SourceKind.JAVA) && !compiles(bug, tree, results)) {
                // a layer failing on a build error would be counted as a catch: fix the catalogue instead
                out.println("  the seeded tree does not compile (" + results.resolve(bug.id() + "-compile.log") + ")");
                for (Layer layer : layers) {
                    row.putIfAbsent(layer, Outcome.DOES_NOT_COMPILE);
                }
            }
            for (Layer layer : layers) {
                if (row.containsKey(layer)) {
                    continue;
                }
                String baselineKey = layer.label() + "/" + bug.protocol();
                if (!baselines.containsKey(baselineKey)) {
                    Outcome clean = runLayer(layer, bug, tree, results.resolve("baseline-" + layer.label() + "-" + bug.protocol()));
                    baselines.put(baselineKey, clean == Outcome.MISSED);
                    out.println("  baseline " + baselineKey + ": " + (clean == Outcome.MISSED ? "passes" : "FAILS (" + clean.label + ")"));
                }
                if (!baselines.get(baselineKey)) {
                    row.put(layer, Outcome.BASELINE_FAILS);
                    continue;
                }
                Mutator.Applied applied = Mutator.apply(tree, layer.seeded(bug));
                try {
                    row.put(layer, runLayer(layer, bug, tree, results.resolve(bug.id() + "-" + layer.label())));
                } finally {
                    applied.restore();
                }
                out.println("  " + layer.label() + ": " + row.get(layer).label);
            }
            Files.writeString(results.resolve("report.md"), Report.markdown(bugs, table, minLayers));
        }
        String report = Report.markdown(bugs, table, minLayers);
        Files.writeString(results.resolve("report.md"), report);
        out.println(report);
        out.println("innet mutate: report in " + results.resolve("report.md"));
        return Report.gateMet(table, minLayers) ? EXIT_GATE_MET : EXIT_GATE_MISSED;
    }

    private boolean compiles(Catalogue.Bug bug, Path tree, Path results) throws IOException, InterruptedException {
        Mutator.Applied applied = Mutator.apply(tree, bug);
        try {
            ToolProcess.Result r = ToolProcess.run(List.of("bash", "-c", "cd impl-java && mvn -B -q -o -DskipTests compile"),
                    tree, results.resolve(bug.id() + "-compile.log"), Duration.ofMinutes(timeoutMinutes));
            return !r.timedOut() && r.exitCode() == 0;
        } finally {
            applied.restore();
        }
    }

    /** Every edit must find its line in the committed tree (read only; nothing is written). */
    static void checkAgainst(Path root, List<Catalogue.Bug> bugs) throws IOException {
        for (Catalogue.Bug bug : bugs) {
            for (Catalogue.Edit edit : bug.edits()) {
                Path file = root.resolve(edit.path());
                if (!Files.isRegularFile(file)) {
                    throw new IllegalArgumentException("bug '" + bug.id() + "': no file " + edit.path());
                }
                Mutator.lineOf(Files.readAllLines(file), edit, bug.id());
            }
        }
    }

    /**
     * Runs the layer's commands in order and stops at the first that fails. MISSED means every command
     * passed (on the clean tree: the baseline holds).
     */
    private Outcome runLayer(Layer layer, Catalogue.Bug bug, Path tree, Path logPrefix) throws IOException, InterruptedException {
        List<List<String>> commands = layer.commands(bug);
        for (int i = 0; i < commands.size(); i++) {
            Path log = logPrefix.resolveSibling(logPrefix.getFileName() + "-" + (i + 1) + ".log");
            ToolProcess.Result r = ToolProcess.run(commands.get(i), tree, log, Duration.ofMinutes(timeoutMinutes));
            if (r.timedOut()) {
                return Outcome.TIMED_OUT;
            }
            if (layer == Layer.JEPSEN && r.exitCode() == 2) {
                return Outcome.UNDECIDED; // the campaign's "unknown": neither a catch nor a pass
            }
            if (r.exitCode() != 0) {
                return Outcome.CAUGHT;
            }
        }
        return Outcome.MISSED;
    }

    /** The report: one row per bug, one column per layer, and how many layers caught it. */
    static final class Report {
        private Report() {
        }

        static String markdown(List<Catalogue.Bug> bugs, Map<String, Map<Layer, Outcome>> table, int minLayers) {
            StringBuilder b = new StringBuilder("| bug | what |");
            for (Layer l : Layer.values()) {
                b.append(' ').append(l.label()).append(" |");
            }
            b.append(" caught by |\n|---|---|");
            b.append("---|".repeat(Layer.values().length)).append("---|\n");
            for (Catalogue.Bug bug : bugs) {
                Map<Layer, Outcome> row = table.get(bug.id());
                if (row == null) {
                    continue;
                }
                b.append("| ").append(bug.id()).append(" | ").append(bug.what()).append(" |");
                for (Layer l : Layer.values()) {
                    Outcome o = row.getOrDefault(l, Outcome.NOT_RUN);
                    b.append(' ').append(o == Outcome.CAUGHT ? "**caught**" : o.label).append(" |");
                }
                long caught = caughtBy(row);
                b.append(' ').append(caught).append(caught >= minLayers ? "" : " (below " + minLayers + ")").append(" |\n");
            }
            return b.toString();
        }

        static long caughtBy(Map<Layer, Outcome> row) {
            return row.values().stream().filter(o -> o == Outcome.CAUGHT).count();
        }

        static boolean gateMet(Map<String, Map<Layer, Outcome>> table, int minLayers) {
            return table.values().stream().allMatch(row -> caughtBy(row) >= minLayers);
        }
    }

    /** A throwaway git worktree of HEAD: the bugs are seeded there, never in the developer's tree. */
    static final class ScratchTree {
        private ScratchTree() {
        }

        static Path fresh(Path root, Path tree) throws IOException, InterruptedException {
            if (Files.exists(tree)) {
                git(root, "worktree", "remove", "--force", tree.toString());
            }
            git(root, "worktree", "prune");
            git(root, "worktree", "add", "--detach", tree.toString(), "HEAD");
            return tree;
        }

        private static void git(Path root, String... args) throws IOException, InterruptedException {
            List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
            command.addAll(List.of(args));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0) {
                throw new IOException(String.join(" ", command) + " failed: " + output.strip());
            }
        }
    }
}
