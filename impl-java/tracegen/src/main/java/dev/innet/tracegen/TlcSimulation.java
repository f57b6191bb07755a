package dev.innet.tracegen;

import dev.innet.verify.TlcJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Random behaviours of a model from TLC's simulation mode: {@code -simulate file=PREFIX,num=N -depth D
 * -seed S} with one worker, so a seed always gives the same behaviours. TLC writes one module per
 * behaviour ({@code PREFIX_0_i}, {@code STATE_1 == ...} blocks, no action names: the spec records its
 * last action in the variable {@code act}). A behaviour may end before depth D when no action is
 * enabled (the model's bounds are used up); that is a valid, shorter case. TLC also checks the
 * model's invariants on every state it simulates: a violation fails the run.
 */
public final class TlcSimulation {
    /** The variable that holds the action label; every spec that traces are made from has it. */
    public static final String ACTION_VARIABLE = "act";
    private static final Pattern BEHAVIOUR_FILE = Pattern.compile("behaviour_(\\d+)_(\\d+)");

    public record Result(List<TraceCase> cases, long millis, Path log) {}

    private TlcSimulation() {}

    /**
     * Simulates {@code behaviours} behaviours of at most {@code depth} states each. {@code workDir} is
     * emptied of earlier behaviour files first; TLC needs the absolute prefix (a relative one writes nothing).
     */
    public static Result run(TlcModel model, Path repositoryRoot, int behaviours, int depth, long seed, Path workDir,
            Duration limit) throws IOException, InterruptedException {
        if (behaviours < 1 || depth < 1) {
            throw new IllegalArgumentException("behaviours and depth must be at least 1");
        }
        Path dir = workDir.toAbsolutePath().normalize();
        Path out = dir.resolve("behaviours");
        deleteBehaviourFiles(out);
        Files.createDirectories(out);
        var result = model.runTlc(List.of("-simulate", "file=" + out.resolve("behaviour") + ",num=" + behaviours,
                "-depth", Integer.toString(depth), "-seed", Long.toString(seed)), model.cfg(), dir, limit, "1g",
                TlcJvm.Compilers.C1_ONLY);
        List<Path> files = behaviourFiles(out);
        if (files.isEmpty()) {
            throw new IOException("TLC wrote no behaviour files under " + out + " (log: " + dir.resolve("tlc.log") + ")");
        }
        String spec = model.specPath(repositoryRoot);
        List<TraceCase> cases = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            List<TlcStateText.State> states;
            try {
                states = TlcStateText.parseBehaviour(Files.readString(files.get(i)));
            } catch (IllegalArgumentException e) {
                throw new IOException(files.get(i) + ": " + e.getMessage(), e);
            }
            cases.add(new TraceCase(spec, model.model(), new TraceCase.Source.Simulate(seed, i),
                    toTraceStates(states, files.get(i).toString()), List.of()));
        }
        return new Result(cases, result.millis(), dir.resolve("tlc.log"));
    }

    /** States with their action label taken from {@link #ACTION_VARIABLE}. */
    static List<TraceCase.TraceState> toTraceStates(List<TlcStateText.State> states, String where) {
        List<TraceCase.TraceState> out = new ArrayList<>();
        for (TlcStateText.State s : states) {
            if (!s.has(ACTION_VARIABLE)) {
                throw new IllegalArgumentException(where + ": the state has no variable '" + ACTION_VARIABLE
                        + "': traces need the spec to record its last action there (docs/conformance.md)");
            }
            out.add(new TraceCase.TraceState(s.get(ACTION_VARIABLE), s.vars()));
        }
        return out;
    }

    /** TLC's files in behaviour order: worker 0 only (one worker), then by index. */
    private static List<Path> behaviourFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> BEHAVIOUR_FILE.matcher(p.getFileName().toString()).matches())
                    .sorted(Comparator.comparingLong((Path p) -> group(p, 1)).thenComparingLong(p -> group(p, 2)))
                    .toList();
        }
    }

    private static long group(Path p, int group) {
        Matcher m = BEHAVIOUR_FILE.matcher(p.getFileName().toString());
        if (!m.matches()) {
            throw new IllegalStateException(p.toString());
        }
        return Long.parseLong(m.group(group));
    }

    private static void deleteBehaviourFiles(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            for (Path p : behaviourFiles(dir)) {
                Files.delete(p);
            }
        }
    }
}
