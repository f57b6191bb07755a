package dev.innet.tracecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.FarReachProtocol;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Trace validation of switch crashes and zero-loss recovery (docs/conformance.md, "Trace validation"): a
 * small FarReach run whose switch crashes mid-run is accepted; recoveries with seeded bugs are rejected at
 * the event that shows the bug.
 */
class CrashTraceValidationTest {
    private static final Path SPECS = Path.of(System.getProperty("innet.root", "../.."), "specs", "farreach");
    static final long CRASH = 800_000;
    static final long RESTART = 900_000;

    static TraceValidator.Result validate(FarReachProtocol protocol, long seed, String name) throws Exception {
        Path work = Path.of("target", "trace-validation", name);
        Path ndjson = work.resolve("run.ndjson");
        TraceRuns.run(protocol, seed, 1_500_000, ndjson, rack -> rack.crashSwitch(CRASH, RESTART));
        TraceValidator.Result r = new TraceValidator(SPECS, work.resolve("tlc"), Duration.ofSeconds(120),
                FarReachTraceConverter.DEFAULT_CLIENT_LINK_NANOS, TraceRuns.CACHE_SLOTS).validate(ndjson);
        System.out.println(name + ": " + r.summary());
        return r;
    }

    @Test
    void aRunWithASwitchCrashAndRecoveryIsAccepted() throws Exception {
        TraceValidator.Result r = validate(new FarReachProtocol().withSnapshotPeriodNanos(300_000), 1, "switch-crash-seed1");
        assertEquals(TraceValidator.Verdict.ACCEPTED, r.verdict(), r.summary());
        String trace = Files.readString(r.model().resolveSibling("FarReachTraceData.tla"));
        assertTrue(trace.contains("e |-> \"crash\"") && trace.contains("e |-> \"recover\""), "no crash in the run");
    }
}
