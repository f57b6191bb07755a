package dev.innet.p4sim.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.v1model.P4Switch;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The state a benchmark target is brought to: a second switch given the recorded control calls and the
 * register cells answers the workload packet exactly as the prepared one does, and one given nothing does not.
 */
class PreparedScenarioTest {
    static Path root() {
        String r = System.getProperty("innet.root");
        return Path.of(r == null ? "../.." : r).toAbsolutePath().normalize();
    }

    static PreparedScenario farReachReadHit() throws Exception {
        return PreparedScenario.of(root().resolve("p4/farreach.p4"), root().resolve("p4/tests/farreach.stf"), 26);
    }

    private static List<String> answers(P4Switch sw, PreparedScenario s) {
        return sw.process(s.workloadPort(), s.workloadFrame()).stream()
                .map(o -> o.port() + ":" + HexFormat.of().formatHex(o.frame())).toList();
    }

    @Test
    void aCopyOfTheStateAnswersTheWorkloadPacketAsThePreparedSwitchDoes() throws Exception {
        PreparedScenario s = farReachReadHit();
        assertFalse(s.calls().isEmpty(), "farreach.stf's commands were not recorded");
        P4Switch copy = P4Sim.compile(s.program()).instantiate();
        int cells = s.copyTo(copy.control());
        assertTrue(cells > 0, "the scenario's packets left no register cell set (the cached record lives in registers)");
        List<String> expected = answers(s.prepared(), s);
        assertFalse(expected.isEmpty(), "the prepared switch does not answer the workload packet");
        assertEquals(expected, answers(copy, s));
    }

    @Test
    void aSwitchLeftInItsInitialStateAnswersDifferently() throws Exception {
        PreparedScenario s = farReachReadHit();
        P4Switch fresh = P4Sim.compile(s.program()).instantiate();
        new PreparedScenario(s.program(), P4Sim.compile(s.program()).instantiate(), List.of(), s.workloadPort(),
                s.workloadFrame()).copyTo(fresh.control());
        assertNotEquals(answers(s.prepared(), s), answers(fresh, s),
                "the read hit does not depend on the prepared state, so the copy test above shows nothing");
    }
}
