package dev.innet.tracegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PathCoverTest {
    /** A hand-written dump in TLC's format: a diamond whose "Rare" edge is only reachable three steps in, and
     * an edge TLC could only label "Next". */
    private static final String DOT = """
            strict digraph DiskGraph {
            nodesep=0.35;
            subgraph cluster_graph {
            color="white";
            1 [label="/\\\\ x = 0\\n/\\\\ act = [a |-> \\"Init\\"]",style = filled]
            1 -> 2 [label="A",color="black",fontcolor="black"];
            2 [label="/\\\\ x = 1\\n/\\\\ act = [a |-> \\"A\\"]"];
            1 -> 3 [label="B",color="black",fontcolor="black"];
            3 [label="/\\\\ x = 2\\n/\\\\ act = [a |-> \\"B\\"]"];
            2 -> 4 [label="A",color="black",fontcolor="black"];
            3 -> 4 [label="A",color="black",fontcolor="black"];
            4 [label="/\\\\ x = 3\\n/\\\\ act = [a |-> \\"A\\"]"];
            4 -> 5 [label="Rare",color="black",fontcolor="black"];
            5 [label="/\\\\ x = 4\\n/\\\\ act = [a |-> \\"Rare\\", s |-> \\"q\\\\\\"uote\\"]"];
            5 -> 3 [label="Next",color="black",fontcolor="black"];
            }
            }
            """;

    @Test
    void readsTheDumpFormat(@TempDir Path dir) throws IOException {
        Path dot = dir.resolve("g.dot");
        Files.writeString(dot, DOT);
        StateGraph g = StateGraph.read(dot, "act");
        assertEquals(5, g.nodeCount());
        assertEquals(List.of(0), g.initialStates());
        // TLC labels some edges just "Next"; the action is the target state's act
        assertEquals(List.of("Init", "A", "B", "Rare"), g.labels());
        assertEquals(List.of("A", "B", "A", "A", "Rare", "B"),
                g.edges().stream().map(e -> g.labels().get(e.label())).toList());
        assertEquals(6, g.edges().size());
        TlcStateText.State last = g.stateTexts(Set.of(4)).get(4);
        assertEquals(TlaValue.parse("[a |-> \"Rare\", s |-> \"q\\\"uote\"]"), last.get("act"));
    }

    @Test
    void labelsFirstThenEdgesWithinTheBudget(@TempDir Path dir) throws IOException {
        Path dot = dir.resolve("g.dot");
        Files.writeString(dot, DOT);
        StateGraph g = StateGraph.read(dot, "act");

        PathCover.Result labelsOnly = PathCover.compute(g, new PathCover.Budget(0, 0, 100, 10));
        assertEquals(List.of("A", "B", "Rare"), labelsOnly.labelsTaken());
        assertEquals(labelsOnly.paths().size(), labelsOnly.labelPaths());
        assertTrue(labelsOnly.edgesTaken() < 6, "a zero budget stops after the labels: " + labelsOnly);

        PathCover.Result all = PathCover.compute(g, new PathCover.Budget(10, 100, 100, 10));
        assertEquals(6, all.edgesTaken());
        Set<StateGraph.Edge> taken = new HashSet<>();
        for (PathCover.Path p : all.paths()) {
            assertEquals(0, p.start(), "every path starts in the initial state");
            for (int i = 1; i < p.edges().size(); i++) {
                assertEquals(p.edges().get(i - 1).to(), p.edges().get(i).from(), "a path is connected");
            }
            taken.addAll(p.edges());
        }
        assertEquals(new HashSet<>(g.edges()), taken);
    }

    @Test
    void aShortPathLimitStillTakesEveryLabel(@TempDir Path dir) throws IOException {
        Path dot = dir.resolve("g.dot");
        Files.writeString(dot, DOT);
        // each path may extend only one step past its prefix, so "Rare" needs its own path
        PathCover.Result r = PathCover.compute(StateGraph.read(dot, "act"), new PathCover.Budget(0, 0, 1, 1));
        assertEquals(List.of("A", "B", "Rare"), r.labelsTaken());
    }

    @Test
    void aFileThatIsNoDumpIsRefused(@TempDir Path dir) throws IOException {
        Path dot = dir.resolve("g.dot");
        Files.writeString(dot, "digraph { a -> b }\n");
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> StateGraph.read(dot, "act"));
        assertTrue(e.getMessage().contains("no initial state"), e.getMessage());
    }

    /** Real TLC on the counter fixture, whose .cfg has a VIEW without act that generation must drop. */
    @Test
    void realTlcDumpOfTheCounterBecomesLabelledCases(@TempDir Path dir) throws Exception {
        PathCoverGeneration.Result r = PathCoverGeneration.run(TlcSimulationTest.COUNTER, TlcSimulationTest.FIXTURES,
                new PathCover.Budget(50, 1000, 40, 10), dir, Duration.ofMinutes(1));
        assertEquals(List.of("Inc", "Mark", "Reset"), r.cover().labelsTaken());
        assertEquals(r.cover().edgesTotal(), r.cover().edgesTaken(), "the budget suffices for every edge");
        assertTrue(r.states() > 8, "without the VIEW the action label multiplies the 8 states: " + r.states());
        for (TraceCase c : r.cases()) {
            assertEquals("Init", c.states().getFirst().actionName());
            assertEquals(c.steps(), ((TraceCase.Source.PathCover) c.source()).edges());
            for (TraceCase.TraceState s : c.states()) {
                assertEquals(s.action(), s.get("act"));
            }
        }
        assertFalse(Files.readString(dir.resolve("MCCounter.cfg")).contains("VIEW"));
    }
}
