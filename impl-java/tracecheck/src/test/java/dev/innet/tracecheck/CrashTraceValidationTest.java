package dev.innet.tracecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.FarReachProtocol;
import dev.innet.farreach.controller.CachedRecord;
import dev.innet.farreach.controller.FarReachController;
import dev.innet.farreach.controller.Recover;
import dev.innet.switchapi.SwitchControl;
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
    /**
     * Mid-run (2 ms of chaos), after write hits the last snapshot does not cover, so recovery has clients'
     * records to replay; down long enough (550 us, above the clients' 500 us timeout) that requests reach the
     * crashed switch, and back before the chaos phase ends, so writes follow the recovery.
     */
    static final long CHAOS = Long.getLong("chaos", 2_000_000);
    static final long CRASH = Long.getLong("crashAt", 850_000);
    static final long RESTART = CRASH + Long.getLong("downFor", 550_000);
    /**
     * Snapshots every 600 us: write hits after the last one before the crash are the clients' records
     * recovery replays; and a key held since before the crash is admitted after the recovery from a report
     * at the fence (HotReportPlacement's fenced case).
     */
    static final long SNAPSHOT_PERIOD = Long.getLong("snapEvery", 600_000);
    /** A seed whose run, with 40% deletes, has a server report a deleted key at the new base after recovery. */
    static final long FENCED_DELETION_SEED = Long.getLong("fencedDeletionSeed", 2);

    /** Seeded bug (test-only, as farreach's SeededBugs): recovery replays only the snapshot, not the clients' records. */
    static FarReachProtocol recoveryIgnoringPreservedRecords(FarReachProtocol p) {
        return p.withControllers((config, settings, handle, hooks) -> new FarReachController(config, settings, handle, hooks) {
            @Override
            protected Recover newRecover(boolean resumeAtCollection) {
                return new Recover(this, resumeAtCollection) {
                    @Override
                    protected void keepPreserved(CachedRecord r) {
                        // seeded bug: the client's copy is dropped
                    }
                };
            }
        });
    }

    /** Seeded bug (test-only): the restarted switch's sequence counters stay at 0 (no incarnation base). */
    static FarReachProtocol recoveryLeavingCountersAtZero(FarReachProtocol p) {
        return p.withControllers((config, settings, handle, hooks) -> new FarReachController(config, settings, handle, hooks) {
            @Override
            protected Recover newRecover(boolean resumeAtCollection) {
                return new Recover(this, resumeAtCollection) {
                    @Override
                    protected void raiseSequenceCounters(SwitchControl c, long floor) {
                        // seeded bug: counters stay where the restart left them
                    }

                    @Override
                    protected long fenceBase() {
                        return 0; // the same bug forgets the base for the fence too: no fence
                    }
                };
            }
        });
    }

    static TraceValidator.Result validate(FarReachProtocol protocol, long seed, String name) throws Exception {
        Path work = Path.of("target", "trace-validation", name);
        Path ndjson = work.resolve("run.ndjson");
        TraceRuns.run(protocol, seed, CHAOS, ndjson, rack -> rack.crashSwitch(CRASH, RESTART));
        TraceValidator.Result r = new TraceValidator(SPECS, work.resolve("tlc"), Duration.ofSeconds(120),
                FarReachTraceConverter.DEFAULT_CLIENT_LINK_NANOS, TraceRuns.CACHE_SLOTS).validate(ndjson);
        System.out.println(name + ": " + r.summary());
        return r;
    }

    @Test
    void aRunWithASwitchCrashAndRecoveryIsAccepted() throws Exception {
        TraceValidator.Result r = validate(new FarReachProtocol().withSnapshotPeriodNanos(SNAPSHOT_PERIOD), 1, "switch-crash-seed1");
        assertEquals(TraceValidator.Verdict.ACCEPTED, r.verdict(), r.summary());
        String trace = Files.readString(r.model().resolveSibling("FarReachTraceData.tla"));
        assertTrue(trace.contains("e |-> \"crash\""), "no crash in the run");
        assertTrue(trace.matches("(?s).*e \\|-> \"recover\", src \\|-> \\d+, stores \\|-> \\{\\[k.*"),
                "a recovery that replays nothing proves little here");
        assertTrue(trace.contains("how |-> \"dropped\""), "no request reached the crashed switch");
    }

    /**
     * A key deleted before the crash is reported by its fenced server as a deletion at the new base (the
     * spec's Fenced keeps the value): the converter maps it to the deletion the server held at the fence. Before
     * it did, such a record was "no write's" and the default `./innet sim` FarReach runs (seeds 1 and 2) were
     * rejected at the first read, hot report or eviction that showed one. Many deletes on 3 keys make sure the
     * run has one, which the test checks in the trace events.
     */
    @Test
    void deletionsReportedThroughTheRecoveryFenceAreAccepted() throws Exception {
        Path work = Path.of("target", "trace-validation", "fenced-deletions");
        Path ndjson = work.resolve("run.ndjson");
        TraceRuns.run(new FarReachProtocol().withSnapshotPeriodNanos(SNAPSHOT_PERIOD), FENCED_DELETION_SEED, CHAOS, 0.4,
                ndjson, rack -> rack.crashSwitch(CRASH, RESTART));
        String base = Long.toString(dev.innet.kv.cache.SequenceBase.of(2));
        assertTrue(Files.readAllLines(ndjson).stream().anyMatch(l -> l.contains("\"storedSeq\":" + base + ",")
                && l.contains("\"storedDeleted\":true")), "no deletion was reported through the fence: the run shows nothing");
        TraceValidator.Result r = new TraceValidator(SPECS, work.resolve("tlc"), Duration.ofSeconds(120),
                FarReachTraceConverter.DEFAULT_CLIENT_LINK_NANOS, TraceRuns.CACHE_SLOTS).validate(ndjson);
        System.out.println("fenced-deletions: " + r.summary());
        assertEquals(TraceValidator.Verdict.ACCEPTED, r.verdict(), r.summary());
    }

    @Test
    void recoveryIgnoringPreservedRecordsIsRejectedAtRecover() throws Exception {
        TraceValidator.Result r = validate(recoveryIgnoringPreservedRecords(new FarReachProtocol().withSnapshotPeriodNanos(SNAPSHOT_PERIOD)),
                1, "recovery-ignoring-preserved");
        assertEquals(TraceValidator.Verdict.REJECTED, r.verdict(), r.summary());
        assertTrue(r.failedDescription().startsWith("e=recover"), r.summary());
    }

    @Test
    void recoveryForgettingTheBaseIsRejectedAfterIt() throws Exception {
        TraceValidator.Result r = validate(recoveryLeavingCountersAtZero(new FarReachProtocol().withSnapshotPeriodNanos(SNAPSHOT_PERIOD)),
                1, "recovery-counters-at-zero");
        assertEquals(TraceValidator.Verdict.REJECTED, r.verdict(), r.summary());
        // the bug forgets the base for the counters and the fence alike: rejected at the first event that
        // shows either, a write numbered below what servers hold, or a server record reported unfenced
        assertTrue(r.failedDescription().startsWith("e=write") || r.failedDescription().startsWith("e=serverPut")
                || r.failedDescription().startsWith("e=serverProbe")
                || r.failedDescription().startsWith("e=putReply") || r.failedDescription().startsWith("e=hot")
                || r.failedDescription().startsWith("e=serverGet"), r.summary());
    }
}
