package dev.innet.verify;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code ./innet verify} and {@code ./innet check}: runs every manifest model under the given paths
 * (default: specs/ and models/), prints a progress line per run and the result table, and exits
 * non-zero if any run did not produce what its manifest expects.
 */
public final class VerifyMain {
    static final int EXIT_ALL_AS_EXPECTED = 0;
    static final int EXIT_UNEXPECTED = 1;
    static final int EXIT_USAGE = 2;

    private VerifyMain() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("innet verify: " + e.getMessage());
            err.println(Options.USAGE);
            return EXIT_USAGE;
        }
        if (options.help()) {
            out.println(Options.USAGE);
            return EXIT_ALL_AS_EXPECTED;
        }
        List<ManifestEntry> entries;
        try {
            entries = select(options);
        } catch (IllegalArgumentException | Manifest.ManifestException e) {
            err.println("innet verify: " + e.getMessage());
            return EXIT_USAGE;
        }
        if (entries.isEmpty()) {
            err.println("innet verify: no models selected (tier " + options.tierName() + ") under " + options.paths());
            return EXIT_USAGE;
        }
        List<Judgement> judgements = runAll(entries, options, out);
        out.println();
        ResultTable.print(judgements, out);
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

    private static List<Judgement> runAll(List<ManifestEntry> entries, Options options, PrintStream out)
            throws InterruptedException {
        Path java = ProcessHandle.current().info().command().map(Path::of)
                .orElseThrow(() -> new IllegalStateException("cannot find the running java executable"));
        Path workRoot = options.root().resolve(".cache").resolve("verify");
        TlcRunner tlc = new TlcRunner(java, TlcRunner.locateTlaJar(), workRoot);
        IvyRunner ivy = new IvyRunner(options.root().resolve(".cache/venv/bin/ivy_check"), workRoot);
        int jobs = options.jobs();
        int workersPerModel = Math.max(1, Runtime.getRuntime().availableProcessors() / jobs);
        out.printf("innet verify: %d runs, tier %s, %d at a time, %d TLC worker(s) each%n", entries.size(),
                options.tierName(), jobs, workersPerModel);
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(jobs);
        try {
            List<Future<Judgement>> futures = new ArrayList<>();
            for (ManifestEntry e : entries) {
                futures.add(pool.submit(() -> {
                    Duration limit = e.tier() == ManifestEntry.Tier.SMALL ? options.smallLimit() : options.fullLimit();
                    String heap = e.tier() == ManifestEntry.Tier.SMALL ? "1500m" : "8g";
                    RunOutcome o = e.kind() == ManifestEntry.Kind.TLC ? tlc.run(e, workersPerModel, limit, heap)
                            : ivy.run(e, limit);
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
            for (Future<Judgement> f : futures) {
                try {
                    judgements.add(f.get());
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
