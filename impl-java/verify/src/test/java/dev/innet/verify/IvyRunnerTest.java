package dev.innet.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How IvyRunner prepares a bounded model checking run and reads its verdict (no ivy_check needed). */
class IvyRunnerTest {
    @Test
    void boundedModelCheckingKeepsOnlySafetyInvariants() {
        String source = """
                isolate p = {
                    # safety: the property we care about
                    invariant [safe] a -> b

                    # a supporting invariant, for the induction
                    invariant [support1] b -> c
                    invariant [support2] c -> d
                    # safety: another one, after a dropped line
                    invariant [safe2] d -> a
                    action step = { assert a }
                }
                """;
        String expected = """
                isolate p = {
                    # safety: the property we care about
                    invariant [safe] a -> b

                    # a supporting invariant, for the induction
                    # safety: another one, after a dropped line
                    invariant [safe2] d -> a
                    action step = { assert a }
                }
                """;
        assertEquals(expected, IvyRunner.safetyInvariantsOnly(source));
    }

    @Test
    void aSafetyCommentSeparatedByBlankLinesStillCounts() {
        assertEquals("# safety: x\n\n  invariant [x] a", IvyRunner.safetyInvariantsOnly("# safety: x\n\n  invariant [x] a"));
    }

    @Test
    void bmcVerdicts() {
        String trace = "Checking invariants at depth 3...\nBMC with bound 3 found a counter-example...\n\n[\n]\n";
        assertEquals(new IvyRunner.BmcVerdict(RunOutcome.Verdict.TRACE_FOUND, "trace of 3 steps"),
                IvyRunner.bmcVerdict(0, trace, 8));
        assertEquals(new IvyRunner.BmcVerdict(RunOutcome.Verdict.NO_TRACE, "no trace in 8 steps"),
                IvyRunner.bmcVerdict(0, "Checking invariants at depth 8...\n\nBOUNDED\nOK\n", 8));
        // a crash or a syntax error is never read as either verdict
        assertEquals(RunOutcome.Verdict.ERROR, IvyRunner.bmcVerdict(1, "p.ivy(3): error: syntax error\n", 8).verdict());
        assertEquals(RunOutcome.Verdict.ERROR, IvyRunner.bmcVerdict(1, trace, 8).verdict());
        assertEquals(RunOutcome.Verdict.ERROR, IvyRunner.bmcVerdict(0, "OK\n", 8).verdict());
        assertEquals(RunOutcome.Verdict.ERROR, IvyRunner.bmcVerdict(0, "BOUNDED\nTraceback (most recent call last):\n", 8)
                .verdict());
    }
}
