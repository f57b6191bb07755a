package dev.innet.tracegen;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A model's whole state graph as TLC writes it with {@code -dump dot,actionlabels FILE}: one node per
 * distinct state ({@code ID [label="/\\ x = 1\n/\\ ..."]}, initial states with {@code style = filled})
 * and one edge per transition TLC found ({@code A -> B [label="ActionName",...]}). TLC's edge label is
 * the name of the Next disjunct it could identify, and for an action under {@code \E m \in net : ...}
 * it is just {@code Next}; so an edge's action here is the name in its target state's action variable
 * ({@code act}), which is exact when the graph was dumped without a VIEW that hides it
 * ({@link PathCoverGeneration} makes sure of that). The file is large (about 1.5 kB per FarReach state), so it
 * is read twice rather than kept: once for the edges and initial states here, and once more by
 * {@link #stateTexts} for the states on the chosen paths only.
 */
public final class StateGraph {
    /** A transition: node indices and an index into {@link #labels()}. */
    public record Edge(int from, int to, int label) {}

    private static final Pattern NODE = Pattern.compile("^(-?\\d+) \\[label=\"(.*)\"(,style = filled)?\\];?$");
    private static final Pattern EDGE = Pattern.compile("^(-?\\d+) -> (-?\\d+) \\[label=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final Path dotFile;
    private final long[] nodeIds;
    private final Map<Long, Integer> index;
    private final List<Integer> initial;
    private final List<Edge> edges;
    private final List<String> labels;
    private final List<List<Edge>> outgoing;

    private StateGraph(Path dotFile, long[] nodeIds, Map<Long, Integer> index, List<Integer> initial,
            List<Edge> edges, List<String> labels) {
        this.dotFile = dotFile;
        this.nodeIds = nodeIds;
        this.index = index;
        this.initial = List.copyOf(initial);
        this.edges = List.copyOf(edges);
        this.labels = List.copyOf(labels);
        List<List<Edge>> out = new ArrayList<>();
        for (int i = 0; i < nodeIds.length; i++) {
            out.add(new ArrayList<>());
        }
        for (Edge e : edges) {
            out.get(e.from()).add(e);
        }
        this.outgoing = out;
    }

    /** Reads the graph (not the state texts) from a DOT file TLC wrote. */
    public static StateGraph read(Path dotFile, String actionVariable) throws IOException {
        String actConjunct = "/\\ " + actionVariable + " = ";
        Map<Long, Integer> index = new HashMap<>();
        List<Long> ids = new ArrayList<>();
        List<Integer> initial = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        Map<String, Integer> labelIndex = new HashMap<>();
        Set<Edge> edges = new LinkedHashSet<>();
        List<long[]> pendingEdges = new ArrayList<>();
        List<Integer> nodeLabel = new ArrayList<>();
        int lineNumber = 0;
        try (BufferedReader in = Files.newBufferedReader(dotFile)) {
            String line;
            while ((line = in.readLine()) != null) {
                lineNumber++;
                Matcher edge = EDGE.matcher(line);
                if (edge.lookingAt()) {
                    // an edge may name a node whose line comes later: resolve after the whole file
                    pendingEdges.add(new long[] {Long.parseLong(edge.group(1)), Long.parseLong(edge.group(2)), lineNumber});
                    continue;
                }
                Matcher node = NODE.matcher(line);
                if (node.matches()) {
                    long id = Long.parseLong(node.group(1));
                    if (index.putIfAbsent(id, ids.size()) == null) {
                        ids.add(id);
                        String label = actionName(unescape(node.group(2)), actConjunct, dotFile, lineNumber);
                        nodeLabel.add(labelIndex.computeIfAbsent(label, k -> {
                            labels.add(k);
                            return labels.size() - 1;
                        }));
                    }
                    if (node.group(3) != null) {
                        initial.add(index.get(id));
                    }
                }
            }
        }
        for (long[] e : pendingEdges) {
            Integer from = index.get(e[0]);
            Integer to = index.get(e[1]);
            if (from == null || to == null) {
                throw new IOException(dotFile + ":" + e[2] + ": edge to a state the file does not list");
            }
            edges.add(new Edge(from, to, nodeLabel.get(to)));
        }
        if (initial.isEmpty()) {
            throw new IOException(dotFile + ": no initial state (a node with style = filled): not a TLC state graph dump");
        }
        long[] nodeIds = ids.stream().mapToLong(Long::longValue).toArray();
        return new StateGraph(dotFile, nodeIds, index, initial, new ArrayList<>(edges), labels);
    }

    /** The action name in a state's text: field a of the action variable's record (or the string itself). */
    private static String actionName(String stateText, String actConjunct, Path dotFile, int lineNumber)
            throws IOException {
        int at = stateText.indexOf(actConjunct);
        if (at < 0) {
            throw new IOException(dotFile + ":" + lineNumber + ": the state has no variable '"
                    + actConjunct.substring(3, actConjunct.length() - 3) + "' holding its action label");
        }
        try {
            return TraceCase.actionName(TlaValueParser.parsePrefix(stateText, at + actConjunct.length()).value());
        } catch (IllegalArgumentException e) {
            throw new IOException(dotFile + ":" + lineNumber + ": " + e.getMessage(), e);
        }
    }

    public int nodeCount() {
        return nodeIds.length;
    }

    public List<Integer> initialStates() {
        return initial;
    }

    /** Distinct edges: a (from, to, action) triple once, however often TLC found it. */
    public List<Edge> edges() {
        return edges;
    }

    /** The action names of the states (so also of the edges into them), in the order first seen; includes Init. */
    public List<String> labels() {
        return labels;
    }

    public List<Edge> outgoing(int node) {
        return outgoing.get(node);
    }

    /** The parsed states of the given nodes, read from the DOT file again. */
    public Map<Integer, TlcStateText.State> stateTexts(Set<Integer> nodes) throws IOException {
        Set<Long> wanted = new HashSet<>();
        for (int n : nodes) {
            wanted.add(nodeIds[n]);
        }
        Map<Integer, TlcStateText.State> states = new HashMap<>();
        try (BufferedReader in = Files.newBufferedReader(dotFile)) {
            String line;
            int lineNumber = 0;
            while ((line = in.readLine()) != null) {
                lineNumber++;
                Matcher node = NODE.matcher(line);
                if (node.matches() && wanted.contains(Long.parseLong(node.group(1)))) {
                    int n = index.get(Long.parseLong(node.group(1)));
                    try {
                        states.put(n, TlcStateText.parseState(unescape(node.group(2))));
                    } catch (IllegalArgumentException e) {
                        throw new IOException(dotFile + ":" + lineNumber + ": " + e.getMessage(), e);
                    }
                }
            }
        }
        return states;
    }

    /** DOT's escapes in TLC's labels: \\ for a backslash, \" for a quote, \n for a line break. */
    static String unescape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                switch (n) {
                    case 'n' -> out.append('\n');
                    case '"' -> out.append('"');
                    case '\\' -> out.append('\\');
                    default -> out.append('\\').append(n);
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
