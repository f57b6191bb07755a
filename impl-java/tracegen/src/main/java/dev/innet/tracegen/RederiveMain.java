package dev.innet.tracegen;

import dev.innet.cli.Cli;
import dev.innet.cli.ExistingFile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Re-derives a curated case for today's spec (docs/conformance.md, "Re-deriving the curated traces"). A
 * spec change that adds steps to behaviours (an action that must now come between two of the case's) makes
 * the old case no behaviour of the spec, and the same seed no longer draws it. This writes a guided model:
 * the case's model plus a cursor into the old case's action labels, whose next-state relation takes a step
 * of Next whose label matches the next old label in every field the old label has (the {@code --ignore}d
 * fields excepted), or a step of one of the {@code --free} actions, which may interleave anywhere and do
 * not duplicate a message. TLC simulates it; the first behaviour that took every old action, without the
 * cursor, under the old case's model name, is the new case.
 */
@Command(name = "tracegen rederive", sortOptions = false, usageHelpAutoWidth = true, descriptionHeading = "%n",
        description = "Re-derives a curated case as a behaviour of today's spec: the old case's actions in order, "
                + "with --free actions interleaved where TLC's simulation puts them.")
public final class RederiveMain implements Callable<Integer> {
    private static final Pattern CONSTANTS = Pattern.compile("(?m)^\\s*CONSTANTS?\\s+([\\w\\s,]+)$");
    private static final String CURSOR = "guideCursor";

    @Spec
    private CommandSpec spec;

    @Option(names = "--case", required = true, paramLabel = "FILE", converter = ExistingFile.class,
            description = "the old case (.trace or .json)")
    private Path caseFile;

    @Option(names = "--spec-dir", required = true, paramLabel = "DIR",
            description = "the spec's directory, holding the case's model")
    private Path specDir;

    @Option(names = "--free", split = ",", paramLabel = "ACTION",
            description = "actions that may interleave anywhere (comma-separated)")
    private List<String> free = new ArrayList<>();

    @Option(names = "--ignore", split = ",", paramLabel = "FIELD",
            description = "label fields (at any depth) not matched, e.g. s,fs when seqs changed")
    private List<String> ignore = new ArrayList<>();

    @Option(names = "--seed", paramLabel = "S", description = "TLC's simulation seed (default: 1)")
    private long seed = 1;

    @Option(names = "--behaviours", paramLabel = "N", description = "behaviours simulated (default: 40)")
    private int behaviours = 40;

    @Option(names = "--note", paramLabel = "TEXT", description = "a further header line (repeatable)")
    private List<String> notes = new ArrayList<>();

    @Option(names = "--drop-note", paramLabel = "PREFIX",
            description = "drop the old header lines that start with PREFIX (repeatable), e.g. a note the spec outgrew")
    private List<String> dropNotes = new ArrayList<>();

    @Option(names = "--out", required = true, paramLabel = "FILE.trace", description = "the case to write")
    private Path out;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    private boolean help;

    private final PrintStream stdout;
    private final Path root;

    RederiveMain(PrintStream stdout, Path root) {
        this.stdout = stdout;
        this.root = root;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        return Cli.run("tracegen rederive", new RederiveMain(out, root), args, out, err);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (!out.getFileName().toString().endsWith(".trace")) {
            throw Cli.usageError(spec, "--out must name a .trace file, got " + out);
        }
        if (behaviours < 1) {
            throw Cli.usageError(spec, "--behaviours must be at least 1, got " + behaviours);
        }
        TraceCase old;
        try {
            old = TraceCase.read(caseFile);
        } catch (IllegalArgumentException e) {
            throw Cli.usageError(spec, "--case: " + e.getMessage());
        }
        TlcModel model;
        try {
            model = new TlcModel(specDir, old.model());
        } catch (IllegalArgumentException e) {
            throw Cli.usageError(spec, "--spec-dir: " + e.getMessage());
        }
        List<TlaValue> labels = old.states().stream().map(TraceCase.TraceState::action).toList();
        String name = guideName(caseFile);
        Path work = root.resolve(".cache/tracegen/rederive").resolve(name);
        Path guideDir = copySpecDir(model.specDir(), work.resolve("spec"));
        Set<String> extra = undeclaredModelValues(labels, model);
        Files.writeString(guideDir.resolve(name + ".tla"), guideModule(name, model.model(), labels, extra));
        Files.writeString(guideDir.resolve(name + ".cfg"), guideConfig(Files.readString(model.cfg()), extra));
        int depth = labels.size() + behaviourSlack(labels);
        TlcSimulation.Result r = TlcSimulation.run(new TlcModel(guideDir, name), root, behaviours, depth, seed,
                work.resolve("tlc"), Duration.ofMinutes(10));
        long furthest = 0;
        for (TraceCase c : r.cases()) {
            long cursor = ((TlaValue.Int) c.states().getLast().get(CURSOR)).value();
            furthest = Math.max(furthest, cursor);
            if (cursor == labels.size()) {
                TraceCase.Source.Simulate source = (TraceCase.Source.Simulate) c.source();
                write(old, c, source);
                stdout.println(out + ": " + (c.states().size() - 1) + " steps, from " + (labels.size() - 1)
                        + " (behaviour " + source.index() + " of " + r.cases().size() + ")");
                return 0;
            }
        }
        stdout.println("no behaviour of " + r.cases().size() + " took all " + (labels.size() - 1)
                + " old actions; the furthest took " + (furthest - 1) + " (TLC log: " + r.log() + ")");
        return 1;
    }

    /** Room for the free actions: two per old step at most, which is more than any use so far needs. */
    private int behaviourSlack(List<TlaValue> labels) {
        return free.isEmpty() ? 1 : 2 * labels.size();
    }

    private void write(TraceCase old, TraceCase derived, TraceCase.Source.Simulate source) throws IOException {
        List<TraceCase.TraceState> states = new ArrayList<>();
        for (TraceCase.TraceState s : derived.states()) {
            states.add(new TraceCase.TraceState(s.action(),
                    s.vars().stream().filter(f -> !f.name().equals(CURSOR)).toList()));
        }
        List<String> header = new ArrayList<>();
        List<String> oldSource = new ArrayList<>();
        for (String line : old.comments()) {
            if (line.startsWith("source: ")) {
                oldSource.add(line.substring("source: ".length()));
            } else if (!line.startsWith("re-derived ") && dropNotes.stream().noneMatch(line::startsWith)) {
                header.add(line);
            }
        }
        notes.forEach(header::add);
        header.add("re-derived by tracegen rederive from an earlier case"
                + (free.isEmpty() ? "" : ", with " + String.join(", ", free) + " free to interleave")
                + (ignore.isEmpty() ? "" : ", not matching the fields " + String.join(", ", ignore))
                + (oldSource.isEmpty() ? "" : "; the earlier case: " + String.join(" ", oldSource)));
        header.add("source: " + old.model() + ", behaviour " + source.index() + " of a guided TLC simulation with seed "
                + source.seed() + "; generated by: tracegen rederive --case " + caseFile.getFileName() + " --spec-dir "
                + display(specDir) + (free.isEmpty() ? "" : " --free " + String.join(",", free))
                + (ignore.isEmpty() ? "" : " --ignore " + String.join(",", ignore)) + " --seed " + seed
                + " --behaviours " + behaviours);
        new TraceCase(old.spec(), old.model(), source, states, header).write(out);
    }

    private String display(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        return abs.startsWith(root) ? root.relativize(abs).toString() : abs.toString();
    }

    private static String guideName(Path caseFile) {
        String base = caseFile.getFileName().toString().replaceFirst("\\.(trace|json)$", "");
        StringBuilder b = new StringBuilder("Guide");
        boolean upper = true;
        for (char c : base.toCharArray()) {
            if (Character.isLetterOrDigit(c)) {
                b.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            } else {
                upper = true;
            }
        }
        return b.toString();
    }

    private static Path copySpecDir(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, to.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return to;
    }

    /** Model values the labels name that the model module does not declare (the .cfg's, e.g. clients). */
    private static Set<String> undeclaredModelValues(List<TlaValue> labels, TlcModel model) throws IOException {
        Set<String> used = new LinkedHashSet<>();
        labels.forEach(l -> collectModelValues(l, used));
        Matcher m = CONSTANTS.matcher(Files.readString(model.tla()));
        while (m.find()) {
            for (String c : m.group(1).split(",")) {
                used.remove(c.strip());
            }
        }
        return used;
    }

    private static void collectModelValues(TlaValue v, Set<String> out) {
        switch (v) {
            case TlaValue.ModelValue mv -> out.add(mv.name());
            case TlaValue.Rec r -> r.fields().forEach(f -> collectModelValues(f.value(), out));
            case TlaValue.Fn f -> f.pairs().forEach(p -> {
                collectModelValues(p.key(), out);
                collectModelValues(p.value(), out);
            });
            case TlaValue.Seq s -> s.elements().forEach(e -> collectModelValues(e, out));
            case TlaValue.TlaSet s -> s.elements().forEach(e -> collectModelValues(e, out));
            default -> { }
        }
    }

    private String guideModule(String name, String model, List<TlaValue> labels, Set<String> extra) {
        StringBuilder b = new StringBuilder();
        b.append("---- MODULE ").append(name).append(" ----\n");
        b.append("\\* Written by tracegen rederive: behaviours of ").append(model)
                .append(" that take the earlier case's actions in order.\n");
        b.append("EXTENDS ").append(model).append(", Sequences, TLC\n");
        b.append("VARIABLE ").append(CURSOR).append('\n');
        if (!extra.isEmpty()) {
            b.append("CONSTANTS ").append(String.join(", ", extra)).append('\n');
        }
        b.append("\\* The next step's label matches the earlier case's label number (").append(CURSOR)
                .append(" + 1) in every field that label has.\n");
        b.append("FollowsOld ==\n    CASE ");
        for (int i = 0; i < labels.size(); i++) {
            List<String> conditions = new ArrayList<>();
            leafConditions(labels.get(i), new ArrayList<>(), conditions);
            b.append(i == 0 ? "" : "\n      [] ").append('(').append(CURSOR).append(" + 1) = ").append(i + 1)
                    .append(" -> ").append(conditions.isEmpty() ? "TRUE" : String.join(" /\\ ", conditions));
        }
        b.append("\n      [] OTHER -> FALSE\n");
        b.append("FreeActions == {");
        for (int i = 0; i < free.size(); i++) {
            b.append(i == 0 ? "" : ", ").append('"').append(free.get(i)).append('"');
        }
        b.append("}\n");
        b.append("GuideInit == Init /\\ ").append(CURSOR).append(" = 1\n");
        b.append("GuideNext ==\n");
        b.append("    \\/ /\\ ").append(CURSOR).append(" < ").append(labels.size()).append(" /\\ Next /\\ FollowsOld /\\ ")
                .append(CURSOR).append("' = ").append(CURSOR).append(" + 1\n");
        b.append("    \\/ /\\ Next /\\ act'.a \\in FreeActions /\\ (\"dup\" \\in DOMAIN act' => act'.dup = FALSE) /\\ ")
                .append(CURSOR).append("' = ").append(CURSOR).append('\n');
        return b.append("====\n").toString();
    }

    /** One condition per leaf field of {@code label}: present in the new label, then equal. */
    private void leafConditions(TlaValue label, List<String> path, List<String> out) {
        if (label instanceof TlaValue.Rec r) {
            for (TlaValue.Field f : r.fields()) {
                if (ignore.contains(f.name())) {
                    continue;
                }
                List<String> next = new ArrayList<>(path);
                next.add(f.name());
                leafConditions(f.value(), next, out);
            }
            return;
        }
        List<String> guards = new ArrayList<>();
        for (int j = 0; j < path.size(); j++) {
            guards.add("\"" + path.get(j) + "\" \\in DOMAIN act'" + prefix(path.subList(0, j)));
        }
        StringBuilder value = new StringBuilder();
        TlaSyntax.print(label, value);
        out.add("(IF " + String.join(" /\\ ", guards) + " THEN act'" + prefix(path) + " = " + value + " ELSE TRUE)");
    }

    private static String prefix(List<String> path) {
        StringBuilder b = new StringBuilder();
        path.forEach(p -> b.append('.').append(p));
        return b.toString();
    }

    private static String guideConfig(String cfg, Set<String> extra) {
        StringBuilder constants = new StringBuilder();
        extra.forEach(x -> constants.append("  ").append(x).append(" = ").append(x).append('\n'));
        String c = cfg.replaceFirst("(?m)^CONSTANTS?\\s*\\n", "CONSTANTS\n" + constants);
        c = c.replaceAll("(?m)^INIT\\s+\\w+\\s*$", "INIT GuideInit").replaceAll("(?m)^NEXT\\s+\\w+\\s*$", "NEXT GuideNext");
        c = c.replaceAll("(?m)^(VIEW|SYMMETRY)\\s+.*\\n", "").replaceAll("(?m)^\\s*ActionCoverage\\s*\\n", "");
        return c;
    }
}
