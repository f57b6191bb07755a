package dev.innet.tracegen;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Paths from an initial state through a {@link StateGraph} that together take every action label,
 * then, within a budget, every distinct edge. Greedy, in two phases:
 * <ol>
 *   <li>labels: while some label is untaken, a path starts with a shortest path from an initial
 *       state to the nearest edge carrying an untaken label, takes it, and keeps going to the nearest
 *       edge with an untaken label reachable from where it is (breadth-first, up to
 *       {@link Budget#searchRadius} steps away) until none is in reach or the path is
 *       {@link Budget#maxPathSteps} long. This phase ignores the budget's path and step totals:
 *       <b>every label on some edge of the graph is taken</b> (every node in TLC's dump is
 *       reachable, so each such edge is on some path from an initial state);</li>
 *   <li>edges: the same with "untaken edge" in place of "untaken label", while the budget's total
 *       paths and steps allow. It guarantees nothing beyond what it reports: the fraction of distinct
 *       edges taken.</li>
 * </ol>
 * A label of Next that is not on any edge of the graph is never enabled in any reachable state of the
 * model; no path can take it, and the caller reports it as unreachable.
 */
public final class PathCover {
    /** Limits for phase 2 (and the length of every path). */
    public record Budget(int maxPaths, int maxTotalSteps, int maxPathSteps, int searchRadius) {
        public Budget {
            if (maxPaths < 0 || maxTotalSteps < 0 || maxPathSteps < 1 || searchRadius < 1) {
                throw new IllegalArgumentException("budget values must be positive: " + this);
            }
        }

        public static Budget defaults() {
            return new Budget(20, 2000, 100, 12);
        }
    }

    /** One path: its edges in order, from an initial state. */
    public record Path(List<StateGraph.Edge> edges) {
        public Path {
            edges = List.copyOf(edges);
        }

        public int start() {
            return edges.getFirst().from();
        }
    }

    /** The paths and what they cover. {@code labelPaths} of them come from phase 1. */
    public record Result(List<Path> paths, int labelPaths, List<String> labelsTaken, int edgesTaken, int edgesTotal) {}

    private final StateGraph graph;
    private final int[] depth;
    private final StateGraph.Edge[] parentEdge;
    private final BitSet edgeTaken;
    private final BitSet labelTaken;
    /** The labels some edge carries (a state's label, such as Init's, may be on none). */
    private final BitSet labelsOnEdges = new BitSet();
    private final Map<StateGraph.Edge, Integer> edgeIndex = new HashMap<>();

    private PathCover(StateGraph graph) {
        this.graph = graph;
        this.depth = new int[graph.nodeCount()];
        this.parentEdge = new StateGraph.Edge[graph.nodeCount()];
        this.edgeTaken = new BitSet(graph.edges().size());
        this.labelTaken = new BitSet(graph.labels().size());
        for (int i = 0; i < graph.edges().size(); i++) {
            edgeIndex.put(graph.edges().get(i), i);
            labelsOnEdges.set(graph.edges().get(i).label());
        }
        shortestPathsFromInitialStates();
    }

    public static Result compute(StateGraph graph, Budget budget) {
        return new PathCover(graph).run(budget);
    }

    private Result run(Budget budget) {
        List<Path> paths = new ArrayList<>();
        int totalSteps = 0;
        // phase 1: every label
        while (!labelTaken.equals(labelsOnEdges)) {
            Path p = greedyPath(budget, true);
            paths.add(p);
            totalSteps += p.edges().size();
        }
        int labelPaths = paths.size();
        // phase 2: edges, within the budget
        while (edgeTaken.cardinality() < graph.edges().size() && paths.size() < budget.maxPaths()
                && totalSteps < budget.maxTotalSteps()) {
            Path p = greedyPath(new Budget(budget.maxPaths(), budget.maxTotalSteps(),
                    Math.min(budget.maxPathSteps(), budget.maxTotalSteps() - totalSteps), budget.searchRadius()), false);
            paths.add(p);
            totalSteps += p.edges().size();
        }
        List<String> taken = new ArrayList<>();
        for (int l = labelTaken.nextSetBit(0); l >= 0; l = labelTaken.nextSetBit(l + 1)) {
            taken.add(graph.labels().get(l));
        }
        Collections.sort(taken);
        return new Result(paths, labelPaths, taken, edgeTaken.cardinality(), graph.edges().size());
    }

    private boolean wanted(StateGraph.Edge e, boolean labels) {
        return labels ? !labelTaken.get(e.label()) : !edgeTaken.get(edgeIndex.get(e));
    }

    /** A shortest prefix to the shallowest wanted edge, then wanted edges nearby, one after the other. */
    private Path greedyPath(Budget budget, boolean labels) {
        StateGraph.Edge first = null;
        for (StateGraph.Edge e : graph.edges()) {
            if (wanted(e, labels) && (first == null || depth[e.from()] < depth[first.from()])) {
                first = e;
            }
        }
        if (first == null) {
            throw new IllegalStateException("nothing left to cover");
        }
        List<StateGraph.Edge> path = new ArrayList<>(prefixTo(first.from()));
        path.add(first);
        take(path);
        int here = first.to();
        while (path.size() < budget.maxPathSteps()) {
            List<StateGraph.Edge> next = nearestWanted(here, labels, Math.min(budget.searchRadius(),
                    budget.maxPathSteps() - path.size()));
            if (next == null) {
                break;
            }
            path.addAll(next);
            take(next);
            here = next.getLast().to();
        }
        return new Path(path);
    }

    private void take(List<StateGraph.Edge> edges) {
        for (StateGraph.Edge e : edges) {
            edgeTaken.set(edgeIndex.get(e));
            labelTaken.set(e.label());
        }
    }

    /** Breadth-first from {@code start}: the shortest walk ending with a wanted edge, at most {@code radius} steps. */
    private List<StateGraph.Edge> nearestWanted(int start, boolean labels, int radius) {
        if (radius < 1) {
            return null;
        }
        Map<Integer, StateGraph.Edge> via = new HashMap<>();
        Map<Integer, Integer> dist = new HashMap<>();
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        dist.put(start, 0);
        queue.add(start);
        while (!queue.isEmpty()) {
            int n = queue.poll();
            int d = dist.get(n);
            for (StateGraph.Edge e : graph.outgoing(n)) {
                if (wanted(e, labels)) {
                    List<StateGraph.Edge> walk = new ArrayList<>();
                    walk.add(e);
                    for (int m = n; m != start; m = via.get(m).from()) {
                        walk.add(via.get(m));
                    }
                    Collections.reverse(walk);
                    return walk;
                }
                if (d + 1 < radius && !dist.containsKey(e.to())) {
                    dist.put(e.to(), d + 1);
                    via.put(e.to(), e);
                    queue.add(e.to());
                }
            }
        }
        return null;
    }

    private List<StateGraph.Edge> prefixTo(int node) {
        List<StateGraph.Edge> prefix = new ArrayList<>();
        for (int n = node; parentEdge[n] != null; n = parentEdge[n].from()) {
            prefix.add(parentEdge[n]);
        }
        Collections.reverse(prefix);
        return prefix;
    }

    private void shortestPathsFromInitialStates() {
        Arrays.fill(depth, Integer.MAX_VALUE);
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int i : graph.initialStates()) {
            depth[i] = 0;
            queue.add(i);
        }
        while (!queue.isEmpty()) {
            int n = queue.poll();
            for (StateGraph.Edge e : graph.outgoing(n)) {
                if (depth[e.to()] == Integer.MAX_VALUE) {
                    depth[e.to()] = depth[n] + 1;
                    parentEdge[e.to()] = e;
                    queue.add(e.to());
                }
            }
        }
    }
}
