package dev.innet.verify;

import dev.innet.cli.Cli;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./innet verify} and {@code ./innet check}: runs every manifest model under the given paths
 * (default: specs/ and models/), prints a progress line per run and the result table, and exits
 * non-zero if any run did not produce what its manifest expects. Every argument, path and manifest is
 * checked before the first checker starts: a bad one is one line on stderr and exit 2.
 */
@Command(name = "innet verify", sortOptions = false, usageHelpAutoWidth = true,
        customSynopsis = {"innet verify [OPTIONS] [PATH...]", "       innet check  [OPTIONS] PATH..."},
        descriptionHeading = "%n", parameterListHeading = "%n", footerHeading = "%n",
        description = "Runs TLC on the models of specs/*/MANIFEST and ivy_check on the files of models/*/MANIFEST "
                + "and checks that each produces what its manifest line expects (docs/layout.md).",
        footer = "A model file given by name runs whatever its tier.")
public final class VerifyMain implements Callable<Integer> {
    static final int EXIT_ALL_AS_EXPECTED = 0;
    static final int EXIT_UNEXPECTED = 1;
    static final int EXIT_USAGE = Cli.EXIT_USAGE;

    /**
     * The tiers {@code --tier} selects. The default is the small tier: what ./innet verify and ./innet test
     * run; the medium tier (larger ok models) runs when asked for, as does the full tier (docs/models.md,
     * "Tiers and the test budget").
     */
    record TierSelection(boolean small, boolean medium, boolean full) {
        static final TierSelection SMALL = new TierSelection(true, false, false);
        static final TierSelection FULL = new TierSelection(false, false, true);

        boolean fullOnly() {
            return full && !small && !medium;
        }
    }

    /** {@code --tier} takes the lower-case names the manifests use, comma-separated, or {@code all}. */
    static final class TierConverter implements CommandLine.ITypeConverter<TierSelection> {
        @Override
        public TierSelection convert(String value) {
            if (value.equals("all")) {
                return new TierSelection(true, true, true);
            }
            boolean small = false;
            boolean medium = false;
            boolean full = false;
            for (String name : value.split(",", -1)) {
                switch (name) {
                    case "small" -> small = true;
                    case "medium" -> medium = true;
                    case "full" -> full = true;
                    default -> throw new CommandLine.TypeConversionException(
                            "--tier takes small, medium, full (comma-separated) or all, got '" + value + "'");
                }
            }
            return new TierSelection(small, medium, full);
        }
    }

    @Spec
    private CommandSpec spec;

    // checked in options(): picocli would report a converter's refusal here as "unmatched argument"
    @Parameters(paramLabel = "PATH", arity = "0..*",
            description = "a spec or Ivy model directory holding a MANIFEST (specs/farreach), a directory of them "
                    + "(specs, models), or one model file (specs/farreach/MCFarReach.tla); default: specs models")
    private List<Path> paths = new ArrayList<>();

    @Option(names = "--full", description = "the full tier only (large models; long)")
    private boolean fullOnly;

    @Option(names = "--tier", paramLabel = "TIER[,TIER]|all", converter = TierConverter.class,
            description = "the tiers to run: small, medium, full, comma-separated, or all (default: small)")
    private TierSelection tier;

    @Option(names = "--jobs", paramLabel = "N",
            description = "checker runs at a time (default: the number of cores, 1 for the full tier alone)")
    private Integer jobs;

    @Option(names = "--ivy-bmc", paramLabel = "N",
            description = "Ivy models only: instead of the inductive proof, bounded model checking for N steps from "
                    + "the initial state, of the safety invariants (comment '# safety:') and assertions: a 'fails' "
                    + "model must yield a concrete trace, an 'ok' model must show none (docs/models.md)")
    private Integer ivyBmcSteps;

    @Option(names = "--simulate", paramLabel = "MINUTES",
            description = "instead of the small/full tiers, TLC random simulation of the sim-tier models (too big for "
                    + "breadth-first search), about MINUTES each, two at a time; reports behaviours and states generated")
    private Integer simulateMinutes;

    @Option(names = "--depth", paramLabel = "N", description = "with --simulate: the longest behaviour (default 100)")
    private Integer depth;

    @Option(names = "--seed", paramLabel = "S",
            description = "with --simulate: the first round's seed (default: drawn and printed; rounds use S, S+1, ...)")
    private Long seed;

    @Option(names = "--dry-run", description = "check the arguments and manifests, list the runs, run nothing")
    private boolean dryRun;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    private boolean help;

    private final PrintStream out;

    VerifyMain(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        return Cli.run("innet verify", new VerifyMain(out), args, out, err);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        Options options = options();
        List<ManifestEntry> entries;
        try {
            entries = select(options);
        } catch (IllegalArgumentException | Manifest.ManifestException e) {
            throw Cli.usageError(spec, e.getMessage());
        }
        if (entries.isEmpty()) {
            throw Cli.usageError(spec, "no models selected (tier " + options.tierName() + ") under " + options.paths());
        }
        if (options.ivyBoundedModelChecking() && entries.stream().noneMatch(e -> e.kind() == ManifestEntry.Kind.IVY)) {
            throw Cli.usageError(spec, "--ivy-bmc applies to Ivy models, and none is selected under " + options.paths());
        }
        if (dryRun) {
            out.printf("innet verify: %d runs, tier %s (dry run: nothing is run)%n", entries.size(), options.tierName());
            for (ManifestEntry e : entries) {
                out.printf("  %s/%s  %s  %s%n", e.spec(), e.model(), e.tier().name().toLowerCase(), e.expectation());
            }
            return EXIT_ALL_AS_EXPECTED;
        }
        List<Judgement> judgements = runAll(entries, options, out);
        out.println();
        ResultTable.print(judgements, out);
        printActions(judgements, out);
        long unexpected = judgements.stream().filter(j -> !j.asExpected()).count();
        out.println();
        out.printf("%d runs: %d as expected, %d unexpected (tier %s).%n", judgements.size(),
                judgements.size() - unexpected, unexpected, options.tierName());
        for (Judgement j : judgements) {
            if (!j.asExpected()) {
                out.printf("  %s/%s: %s%n    log: %s%n", j.entry().spec(), j.entry().model(), j.summary(),
                        j.outcome().log());
            }
        }
        return unexpected == 0 ? EXIT_ALL_AS_EXPECTED : EXIT_UNEXPECTED;
    }

    /** Per ok TLC model that reports them: the actions it took (covers= in MANIFEST makes some mandatory). */
    private static void printActions(List<Judgement> judgements, PrintStream out) {
        boolean header = false;
        for (Judgement j : judgements) {
            if (j.outcome().actions().isEmpty() || !(j.entry().expectation() instanceof Expectation.Holds)) {
                continue;
            }
            if (!header) {
                out.println();
                out.println("Actions taken (ok models that check " + TlcRunner.ACTION_COVERAGE + "):");
                header = true;
            }
            out.printf("  %s/%s (%d): %s%n", j.entry().spec(), j.entry().model(), j.outcome().actions().size(),
                    String.join(" ", j.outcome().actions()));
        }
    }

    /** The checked command line; what no converter can see is a usage error here. */
    private Options options() {
        if (fullOnly && tier != null) {
            throw Cli.usageError(spec, "--full and --tier exclude each other (--full is --tier full)");
        }
        if (jobs != null && jobs < 1) {
            throw Cli.usageError(spec, "--jobs must be at least 1, got " + jobs);
        }
        if (ivyBmcSteps != null && ivyBmcSteps < 1) {
            throw Cli.usageError(spec, "--ivy-bmc must be at least 1 step, got " + ivyBmcSteps);
        }
        if (simulateMinutes != null && (fullOnly || tier != null)) {
            throw Cli.usageError(spec, "--simulate runs the sim tier: it excludes --full and --tier");
        }
        if (simulateMinutes != null && simulateMinutes < 1) {
            throw Cli.usageError(spec, "--simulate takes at least 1 minute, got " + simulateMinutes);
        }
        if (simulateMinutes == null && (depth != null || seed != null)) {
            throw Cli.usageError(spec, "--depth and --seed apply to --simulate");
        }
        if (depth != null && depth < 1) {
            throw Cli.usageError(spec, "--depth must be at least 1, got " + depth);
        }
        Options.Simulation simulation = new Options.Simulation(simulateMinutes != null,
                Duration.ofMinutes(simulateMinutes != null ? simulateMinutes : 1), depth != null ? depth : 100,
                seed != null ? seed : new java.util.Random().nextLong(1, 1L << 40));
        TierSelection tiers = fullOnly ? TierSelection.FULL : tier != null ? tier : TierSelection.SMALL;
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        for (Path p : paths) {
            if (!Files.exists(p)) {
                throw Cli.usageError(spec, "no such spec, model directory or file: " + p);
            }
        }
        List<Path> chosen = new ArrayList<>(paths);
        if (chosen.isEmpty()) {
            for (String d : List.of("specs", "models")) {
                if (Files.isDirectory(root.resolve(d))) {
                    chosen.add(root.resolve(d));
                }
            }
        }
        int cores = Runtime.getRuntime().availableProcessors();
        int chosenJobs = jobs != null ? jobs : (tiers.fullOnly() && simulateMinutes == null ? 1 : cores);
        return new Options(root, List.copyOf(chosen), tiers.small(), tiers.medium(), tiers.full(), chosenJobs, Duration.ofMinutes(5),
                Duration.ofHours(3), ivyBmcSteps == null ? 0 : ivyBmcSteps, simulation);
    }

    static List<ManifestEntry> select(Options options) throws IOException {
        List<ManifestEntry> selected = new ArrayList<>();
        for (Path path : options.paths()) {
            Path p = path.toAbsolutePath().normalize();
            String onlyModel = null;
            if (Files.isRegularFile(p)) {
                String name = p.getFileName().toString();
                onlyModel = name.endsWith(".ivy") ? name : name.replaceFirst("\\.(tla|cfg)$", "");
                p = p.getParent();
            }
            if (!Files.isDirectory(p)) {
                throw new IllegalArgumentException("no such spec, model directory or file: " + path);
            }
            List<Path> manifestDirs = manifestDirectories(p);
            if (manifestDirs.isEmpty()) {
                throw new IllegalArgumentException("no " + Manifest.FILE_NAME + " in or under " + path);
            }
            for (Path dir : manifestDirs) {
                for (ManifestEntry e : Manifest.read(dir, kindOf(dir))) {
                    boolean named = onlyModel != null && e.model().equals(onlyModel);
                    if (onlyModel != null ? named : options.includes(e.tier())) {
                        selected.add(e);
                    }
                }
            }
            String only = onlyModel;
            if (only != null && selected.stream().noneMatch(e -> e.model().equals(only))) {
                throw new IllegalArgumentException(path + " is not listed in its directory's " + Manifest.FILE_NAME);
            }
        }
        return selected;
    }

    private static List<Path> manifestDirectories(Path p) throws IOException {
        if (Files.isRegularFile(p.resolve(Manifest.FILE_NAME))) {
            return List.of(p);
        }
        List<Path> children;
        try (var list = Files.list(p)) {
            children = list.filter(Files::isDirectory).sorted(Comparator.naturalOrder()).toList();
        }
        List<Path> withManifest = new ArrayList<>();
        for (Path child : children) {
            if (Files.isRegularFile(child.resolve(Manifest.FILE_NAME))) {
                withManifest.add(child);
            } else if (holdsCheckableFiles(child)) {
                // A spec nobody checks is worse than none: it looks verified. Refuse to skip it.
                throw new IllegalArgumentException(child + " holds .tla/.ivy files but no " + Manifest.FILE_NAME
                        + " (see docs/layout.md)");
            }
        }
        return withManifest;
    }

    private static boolean holdsCheckableFiles(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.anyMatch(f -> f.toString().endsWith(".tla") || f.toString().endsWith(".ivy"));
        }
    }

    private static ManifestEntry.Kind kindOf(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.anyMatch(f -> f.toString().endsWith(".ivy")) ? ManifestEntry.Kind.IVY : ManifestEntry.Kind.TLC;
        }
    }

    /**
     * The order runs start in: what usually takes longest first, so that two runs at a time end together
     * rather than one long run finishing alone. Without timings to go by, the kind decides: an ok model
     * explores its whole state space, an Ivy file runs Z3 over the whole proof, and a buggy variant stops at
     * its first counterexample. Stable within a kind.
     */
    static List<ManifestEntry> longestFirst(List<ManifestEntry> entries) {
        List<ManifestEntry> order = new ArrayList<>(entries);
        order.sort(java.util.Comparator.comparingInt(VerifyMain::expectedCostRank));
        return order;
    }

    private static int expectedCostRank(ManifestEntry e) {
        boolean holds = e.expectation() instanceof Expectation.Holds;
        if (e.kind() == ManifestEntry.Kind.TLC) {
            return holds ? 0 : 2;
        }
        return 1;
    }

    private static List<Judgement> runAll(List<ManifestEntry> entries, Options options, PrintStream out)
            throws InterruptedException {
        Path workRoot = options.root().resolve(".cache").resolve("verify");
        TlcRunner tlc = new TlcRunner(TlcJvm.currentJava(), workRoot);
        IvyRunner ivy = new IvyRunner(options.root().resolve(".cache/venv/bin/ivy_check"), workRoot);
        int jobs = options.jobs();
        int workersPerModel = Math.max(1, Runtime.getRuntime().availableProcessors() / jobs);
        out.printf("innet verify: %d runs, tier %s, %d at a time, %d TLC worker(s) each%s%s%n", entries.size(),
                options.tierName(), jobs, workersPerModel, options.ivyBoundedModelChecking()
                        ? "; Ivy models: bounded model checking, " + options.ivyBmcSteps() + " steps" : "",
                entries.stream().anyMatch(e -> e.tier() == ManifestEntry.Tier.SIM)
                        ? String.format("; simulation: about %d min per model, depth %d, seed %d (--seed to repeat)",
                                options.simulation().budget().toMinutes(), options.simulation().depth(),
                                options.simulation().seed()) : "");
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(jobs);
        try {
            java.util.Map<ManifestEntry, Future<Judgement>> futures = new java.util.HashMap<>();
            for (ManifestEntry e : longestFirst(entries)) {
                futures.put(e, pool.submit(() -> {
                    boolean large = e.tier() == ManifestEntry.Tier.FULL;
                    Duration limit = large ? options.fullLimit() : options.smallLimit();
                    String heap = large ? "8g" : "1500m";
                    RunOutcome o;
                    if (e.tier() == ManifestEntry.Tier.SIM) {
                        Options.Simulation s = options.simulation();
                        o = tlc.simulate(e, s.budget(), s.depth(), s.seed(), "1500m");
                    } else if (e.kind() == ManifestEntry.Kind.TLC) {
                        o = tlc.run(e, workersPerModel, limit, heap);
                    } else if (options.ivyBoundedModelChecking()) {
                        // BMC takes minutes where the proof takes seconds (docs/models.md): the long limit
                        o = ivy.boundedModelCheck(e, options.ivyBmcSteps(), options.fullLimit());
                    } else {
                        o = ivy.prove(e, limit);
                    }
                    Judgement j = Judgement.of(e, o);
                    synchronized (out) {
                        out.printf("[%d/%d] %s/%s: %s (%s, %s states)%n", done.incrementAndGet(), entries.size(),
                                e.spec(), e.model(), j.summary(), ResultTable.seconds(o.millis()),
                                ResultTable.states(o.distinctStates()));
                    }
                    return j;
                }));
            }
            List<Judgement> judgements = new ArrayList<>();
            for (ManifestEntry entry : entries) { // the table keeps the manifests' order
                try {
                    judgements.add(futures.get(entry).get());
                } catch (ExecutionException e) {
                    throw new IllegalStateException("a checker run failed to start: " + e.getCause(), e.getCause());
                }
            }
            return judgements;
        } finally {
            pool.shutdownNow();
        }
    }
}
