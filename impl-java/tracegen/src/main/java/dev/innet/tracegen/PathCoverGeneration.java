package dev.innet.tracegen;

import dev.innet.verify.TlcJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Trace cases from a path cover of a small model's whole state graph: TLC explores the model with
 * {@code -dump dot,actionlabels}, {@link PathCover} picks the paths, and each path becomes a case.
 *
 * <p>TLC runs on a copy of the model's .cfg without VIEW and SYMMETRY. With a VIEW that leaves out
 * {@code act}, TLC merges states that differ only in their action label, so a node's {@code act} would
 * be whichever action reached it first, not the action on the edge a path takes; with SYMMETRY an
 * edge may lead to a permutation of the real successor. Without them every node is a real state and
 * every path a real behaviour, at the price of more states: path cover is for small models.
 */
public final class PathCoverGeneration {
    private static final Pattern VIEW_OR_SYMMETRY = Pattern.compile("(?m)^\\s*(VIEW|SYMMETRY)\\s+\\w+\\s*$");

    /** The cases and what the cover took; {@code states} and {@code millis} describe TLC's run. */
    public record Result(List<TraceCase> cases, PathCover.Result cover, int states, long millis, Path log) {}

    private PathCoverGeneration() {}

    public static Result run(TlcModel model, Path repositoryRoot, PathCover.Budget budget, Path workDir,
            Duration limit) throws IOException, InterruptedException {
        Path dir = workDir.toAbsolutePath().normalize();
        Files.createDirectories(dir);
        Path cfg = dir.resolve(model.model() + ".cfg");
        Files.writeString(cfg, withoutViewAndSymmetry(Files.readString(model.cfg())));
        Path dot = dir.resolve("graph.dot");
        Files.deleteIfExists(dot);
        var tlc = model.runTlc(List.of("-dump", "dot,actionlabels", dot.toString()), cfg, dir, limit, "2g",
                TlcJvm.Compilers.TIERED);
        if (!Files.isRegularFile(dot)) {
            throw new IOException("TLC wrote no state graph at " + dot + " (log: " + dir.resolve("tlc.log") + ")");
        }
        StateGraph graph = StateGraph.read(dot, TlcSimulation.ACTION_VARIABLE);
        PathCover.Result cover = PathCover.compute(graph, budget);
        Set<Integer> nodes = new HashSet<>();
        for (PathCover.Path p : cover.paths()) {
            nodes.add(p.start());
            p.edges().forEach(e -> nodes.add(e.to()));
        }
        Map<Integer, TlcStateText.State> texts = graph.stateTexts(nodes);
        String spec = model.specPath(repositoryRoot);
        List<TraceCase> cases = new ArrayList<>();
        for (int i = 0; i < cover.paths().size(); i++) {
            PathCover.Path p = cover.paths().get(i);
            List<TlcStateText.State> states = new ArrayList<>();
            states.add(texts.get(p.start()));
            p.edges().forEach(e -> states.add(texts.get(e.to())));
            List<TraceCase.TraceState> traceStates = TlcSimulation.toTraceStates(states, dot.toString());
            cases.add(new TraceCase(spec, model.model(), new TraceCase.Source.PathCover(i, p.edges().size()),
                    traceStates, List.of()));
        }
        return new Result(cases, cover, graph.nodeCount(), tlc.millis(), dir.resolve("tlc.log"));
    }

    static String withoutViewAndSymmetry(String cfg) {
        String noComments = cfg.replaceAll("\\\\\\*[^\\n]*", "");
        return VIEW_OR_SYMMETRY.matcher(noComments).replaceAll("");
    }
}
