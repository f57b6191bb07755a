package dev.innet.tracegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real TLC in simulation mode on the tiny counter fixture. */
class TlcSimulationTest {
    static final Path FIXTURES = Path.of("src/test/resources/fixtures").toAbsolutePath();
    static final TlcModel COUNTER = new TlcModel(FIXTURES.resolve("counter"), "MCCounter");

    @Test
    void everyBehaviourBecomesACaseStartingInTheInitialState(@TempDir Path dir) throws Exception {
        TlcSimulation.Result r = TlcSimulation.run(COUNTER, FIXTURES, 4, 6, 42, dir, Duration.ofMinutes(1));
        assertEquals(4, r.cases().size());
        for (int i = 0; i < r.cases().size(); i++) {
            TraceCase c = r.cases().get(i);
            assertEquals("counter/Counter.tla", c.spec());
            assertEquals("MCCounter", c.model());
            assertEquals(new TraceCase.Source.Simulate(42, i), c.source());
            assertEquals("Init", c.states().getFirst().actionName());
            assertEquals(new TlaValue.Int(0), c.states().getFirst().get("x"));
            assertTrue(c.states().size() <= 6, "depth bounds the states: " + c.states().size());
            // the counter never deadlocks, so each behaviour runs to the depth
            assertEquals(6, c.states().size());
            for (TraceCase.TraceState s : c.states().subList(1, c.states().size())) {
                assertTrue(List.of("Inc", "Mark", "Reset").contains(s.actionName()), s.actionName());
                assertEquals(s.action(), s.get("act"));
            }
        }
    }

    @Test
    void theSameSeedGivesTheSameBehaviours(@TempDir Path a, @TempDir Path b) throws Exception {
        List<TraceCase> first = TlcSimulation.run(COUNTER, FIXTURES, 3, 8, 9, a, Duration.ofMinutes(1)).cases();
        List<TraceCase> second = TlcSimulation.run(COUNTER, FIXTURES, 3, 8, 9, b, Duration.ofMinutes(1)).cases();
        assertEquals(first, second);
    }

    @Test
    void aMissingModelIsRefusedBeforeTlcRuns() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TlcModel(FIXTURES.resolve("counter"), "MCNoSuch"));
        assertTrue(e.getMessage().contains("no model MCNoSuch.tla"), e.getMessage());
    }

    @Test
    void aBrokenModelIsAnErrorWithTlcsOutput(@TempDir Path dir) throws IOException {
        TlcModel broken = new TlcModel(FIXTURES.resolve("broken"), "MCBroken");
        IOException e = assertThrows(IOException.class,
                () -> TlcSimulation.run(broken, FIXTURES, 1, 3, 1, dir, Duration.ofMinutes(1)));
        assertTrue(e.getMessage().contains("TLC on MCBroken exited with"), e.getMessage());
    }
}
