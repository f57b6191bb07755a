package dev.innet.tracegen;

import dev.innet.cli.Cli;
import dev.innet.cli.ExistingDirectory;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Generates conformance trace cases from a spec with TLC: random simulation of one model and/or a
 * path cover of a small model's state graph. Writes one JSON file per case, prints a line per case
 * and the spec's action coverage (docs/conformance.md, "Generating traces").
 */
@Command(name = "tracegen", sortOptions = false, usageHelpAutoWidth = true, descriptionHeading = "%n",
        description = "Generates conformance trace cases (JSON, one behaviour each) from a TLA+ spec with TLC: "
                + "--simulate N random behaviours of --model, and/or --path-cover MODEL (paths through its whole "
                + "state graph that take every action, then as many distinct edges as the budget allows).")
public final class GenerateMain implements Callable<Integer> {
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;

    @Spec
    private CommandSpec spec;

    @Option(names = "--spec-dir", required = true, paramLabel = "DIR", converter = ExistingDirectory.class,
            description = "the spec directory holding the models (specs/farreach)")
    private Path specDir;

    @Option(names = "--model", paramLabel = "MODEL", description = "the model to simulate (MCFarReachSim)")
    private String model;

    @Option(names = "--simulate", paramLabel = "N", description = "simulate N behaviours of --model")
    private Integer simulate;

    @Option(names = "--depth", paramLabel = "D", defaultValue = "50",
            description = "states per simulated behaviour at most (default: ${DEFAULT-VALUE})")
    private int depth;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "TLC's seed (default: ${DEFAULT-VALUE})")
    private long seed;

    @Option(names = "--path-cover", paramLabel = "MODEL",
            description = "path cover of this small model's state graph (dumped without its VIEW: small models only)")
    private String pathCoverModel;

    @Option(names = "--max-paths", paramLabel = "K", defaultValue = "20",
            description = "path cover: paths at most, once every action is taken (default: ${DEFAULT-VALUE})")
    private int maxPaths;

    @Option(names = "--max-steps", paramLabel = "N", defaultValue = "2000",
            description = "path cover: steps in all paths at most, once every action is taken (default: ${DEFAULT-VALUE})")
    private int maxSteps;

    @Option(names = "--actions", paramLabel = "A,B,...", split = ",",
            description = "the names of Next's actions (default: those the spec writes into act')")
    private List<String> actions;

    @Option(names = "--out", paramLabel = "DIR", description = "where the cases go (default: .cache/conformance/MODEL)")
    private Path out;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "1800",
            description = "limit for each TLC run (default: ${DEFAULT-VALUE})")
    private int timeoutSeconds;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    private boolean help;

    private final PrintStream stdout;
    private final PrintStream stderr;
    private final Path root;

    GenerateMain(PrintStream stdout, PrintStream stderr, Path root) {
        this.stdout = stdout;
        this.stderr = stderr;
        this.root = root;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        return Cli.run("tracegen", new GenerateMain(out, err, root), args, out, err);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        // argument checks first: nothing runs after a bad one
        if (simulate == null && model != null) {
            throw Cli.usageError(spec, "--model is the model to simulate: give --simulate N too");
        }
        if (simulate == null && pathCoverModel == null) {
            throw Cli.usageError(spec, "nothing to do: give --simulate N (with --model) and/or --path-cover MODEL");
        }
        if (simulate != null && model == null) {
            throw Cli.usageError(spec, "--simulate needs --model MODEL");
        }
        if (simulate != null && simulate < 1) {
            throw Cli.usageError(spec, "--simulate must be at least 1, got " + simulate);
        }
        if (depth < 1) {
            throw Cli.usageError(spec, "--depth must be at least 1, got " + depth);
        }
        if (maxPaths < 0 || maxSteps < 0 || timeoutSeconds < 1) {
            throw Cli.usageError(spec, "--max-paths and --max-steps must be >= 0 and --timeout >= 1");
        }
        TlcModel simModel = simulate == null ? null : model("--model", model);
        TlcModel coverModel = pathCoverModel == null ? null : model("--path-cover", pathCoverModel);
        TlcModel first = simModel != null ? simModel : coverModel;
        Path specTla = first.specFile();
        List<String> actionNames;
        try {
            actionNames = actions != null ? actions : ActionCoverage.actionsOf(specTla);
        } catch (IOException e) {
            throw Cli.usageError(spec, e.getMessage());
        }
        Path outDir = (out != null ? out : root.resolve(".cache/conformance").resolve(first.model())).toAbsolutePath();
        Path work = root.resolve(".cache/tracegen");
        Duration limit = Duration.ofSeconds(timeoutSeconds);

        ActionCoverage coverage = new ActionCoverage(actionNames);
        List<String> notes = new ArrayList<>();
        int written = 0;
        try {
            Files.createDirectories(outDir);
            if (simModel != null) {
                TlcSimulation.Result r = TlcSimulation.run(simModel, root, simulate, depth, seed,
                        work.resolve(simModel.model()).resolve("simulate"), limit);
                for (TraceCase c : r.cases()) {
                    written += write(c, outDir.resolve(simModel.model() + "-sim-s" + seed + "-" + index(c) + ".json"), coverage);
                }
                notes.add(String.format("simulate %s: %d behaviours (depth <= %d, seed %d) in %.1f s",
                        simModel.model(), r.cases().size(), depth, seed, r.millis() / 1000.0));
            }
            if (coverModel != null) {
                PathCoverGeneration.Result r = PathCoverGeneration.run(coverModel, root,
                        new PathCover.Budget(maxPaths, maxSteps, 100, 12),
                        work.resolve(coverModel.model()).resolve("pathcover"), limit);
                for (TraceCase c : r.cases()) {
                    written += write(c, outDir.resolve(coverModel.model() + "-pathcover-" + index(c) + ".json"), coverage);
                }
                PathCover.Result cover = r.cover();
                notes.add(String.format("path cover %s: %d states, %d paths (%d for the actions), %d/%d distinct edges "
                        + "(%.1f%%), TLC %.1f s", coverModel.model(), r.states(), cover.paths().size(), cover.labelPaths(),
                        cover.edgesTaken(), cover.edgesTotal(), 100.0 * cover.edgesTaken() / Math.max(1, cover.edgesTotal()),
                        r.millis() / 1000.0));
                // the graph is the whole model: an action on no edge is enabled in no reachable state
                ActionCoverage inModel = new ActionCoverage(actionNames);
                r.cases().forEach(inModel::add);
                for (String a : inModel.notTaken()) {
                    String why = ActionCoverage.reason(a, specTla, coverModel.cfg());
                    notes.add("  " + a + " is enabled in no reachable state of " + coverModel.model()
                            + (why.isEmpty() ? "" : ": " + why));
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            stderr.println("tracegen: " + e.getMessage());
            return EXIT_FAILED;
        }
        notes.forEach(stdout::println);
        stdout.printf("%d cases in %s%n", written, display(outDir));
        List<String> takenList = coverage.taken();
        stdout.printf("actions taken: %d/%d (%.0f%%)%n", takenList.size(), coverage.actions().size(),
                100.0 * takenList.size() / coverage.actions().size());
        for (String a : coverage.notTaken()) {
            String why = ActionCoverage.reason(a, specTla, (simModel != null ? simModel : coverModel).cfg());
            stdout.println("  not taken: " + a + (why.isEmpty() ? "" : " (" + why + ")"));
        }
        for (String a : coverage.unknown()) {
            stdout.println("  taken but not in the action list: " + a);
        }
        return EXIT_OK;
    }

    private TlcModel model(String option, String name) {
        try {
            return new TlcModel(specDir, name);
        } catch (IllegalArgumentException e) {
            throw Cli.usageError(spec, option + ": " + e.getMessage());
        }
    }

    private int write(TraceCase c, Path file, ActionCoverage coverage) throws IOException {
        c.write(file);
        coverage.add(c);
        Set<String> distinct = new TreeSet<>();
        c.states().subList(1, c.states().size()).forEach(s -> distinct.add(s.actionName()));
        stdout.printf("%s: %d steps, %d distinct actions%n", display(file), c.steps(), distinct.size());
        return 1;
    }

    /** A path relative to the repository when it is inside it, so lines stay short. */
    private String display(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        return abs.startsWith(root) ? root.relativize(abs).toString() : abs.toString();
    }

    private static int index(TraceCase c) {
        return switch (c.source()) {
            case TraceCase.Source.Simulate s -> s.index();
            case TraceCase.Source.PathCover p -> p.index();
        };
    }
}
