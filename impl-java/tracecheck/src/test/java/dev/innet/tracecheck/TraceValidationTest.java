package dev.innet.tracecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.FarReachProtocol;
import dev.innet.farreach.controller.Admit;
import dev.innet.farreach.controller.CachedRecord;
import dev.innet.farreach.controller.Snap;
import dev.innet.farreach.controller.FarReachControlNames;
import dev.innet.farreach.controller.FarReachController;
import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.InnetMessage;
import java.math.BigInteger;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import dev.innet.farreach.server.FarReachServer;
import dev.innet.kv.server.ServerConfig;
import dev.innet.kv.store.RecordStore;
import dev.innet.kv.store.RecordStoreOpener;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Trace validation end to end: small FarReach rack runs (lossy, duplicating, reordering switch-server
 * links) are converted and checked by TLC against FarReachTrace.tla. The real protocol is accepted; a
 * server that ignores sequence numbers is rejected at the event where it keeps an older record, an admission
 * that marks its record latest at a read the switch answered from it.
 */
class TraceValidationTest {
    private static final Path SPECS = Path.of(System.getProperty("innet.root", "../.."), "specs", "farreach");

    /** Seeded bug (test-only): numbered writes are applied in arrival order, as if seqs did not exist. */
    static final class ServerIgnoringSequenceNumbers extends FarReachServer {
        ServerIgnoringSequenceNumbers(ServerConfig config, RecordStoreOpener opener) {
            super(config, opener);
        }

        @Override
        protected RecordStore.Ordering numberedOrdering() {
            return RecordStore.Ordering.ARRIVAL;
        }
    }

    /**
     * Seeded bug (test-only): admission marks the new record latest as it makes it valid (the spec's
     * BugAdmitLatest). A write forwarded to the server between the hot report and the installation makes the
     * cached record stale, and reads are then answered from it; the spec only lets a write or a server's read
     * reply mark a record latest (§3.2).
     */
    static FarReachProtocol admissionMarkingLatest(FarReachProtocol p) {
        return p.withControllers((config, settings, handle, hooks) -> new FarReachController(config, settings, handle, hooks) {
            @Override
            protected Admit newAdmit(int index, InnetMessage report) {
                return new Admit(this, index, report) {
                    @Override
                    public boolean step(SwitchControl c) {
                        boolean validated = super.step(c);
                        if (validated) {
                            c.registerWrite(FarReachControlNames.RECORD_LATEST, index, BigInteger.ONE);
                        }
                        return validated;
                    }
                };
            }
        });
    }

    /**
     * Seeded bug (test-only): a snapshot takes the records changed since the snapshot point as they are now,
     * ignoring the originals the switch reported (the spec's BugNoSnapshotOriginals, from the controller's
     * side): the snapshot kept is not the cache at the point.
     */
    static FarReachProtocol snapshotsIgnoringOriginals(FarReachProtocol p) {
        return p.withControllers((config, settings, handle, hooks) -> new FarReachController(config, settings, handle, hooks) {
            @Override
            protected Snap newSnap() {
                FarReachController controller = this;
                return new Snap(this) {
                    @Override
                    protected Map<String, CachedRecord> changedRecords(SwitchControl c) {
                        Map<String, CachedRecord> now = new TreeMap<>();
                        for (int index : controller.directory().indices()) {
                            byte[] key = controller.directory().keyAt(index);
                            if (awaitingOriginal.contains(HexFormat.of().formatHex(key))) {
                                now.put(HexFormat.of().formatHex(key), new CachedRecord(key, FarReachController.readRecord(c, index)));
                            }
                        }
                        return now;
                    }
                };
            }
        });
    }

    /**
     * Snapshots every 200 us: a write hit then falls between a snapshot's point and its load of the record (an
     * original), which the seeded snapshot bug needs (300 us did until admissions gained their probe).
     */
    static final long SNAPSHOT_PERIOD = Long.getLong("snapEvery", 200_000);

    private static TraceValidator.Result validate(FarReachProtocol protocol, long seed, String name) throws Exception {
        Path work = Path.of("target", "trace-validation", name);
        Path ndjson = work.resolve("run.ndjson");
        TraceRuns.run(protocol, seed, 1_500_000, ndjson);
        TraceValidator.Result r = new TraceValidator(SPECS, work.resolve("tlc"), Duration.ofSeconds(120),
                FarReachTraceConverter.DEFAULT_CLIENT_LINK_NANOS, TraceRuns.CACHE_SLOTS).validate(ndjson);
        System.out.println(name + ": " + r.summary());
        return r;
    }

    /**
     * Regression (campaign `--seeds 3 --chaos-ms 2 --keys 3 --deletes 0`, seed 3, its first 95 events): a GET
     * the network duplicated reaches the server again (NDJSON line 90) after the client's read completed and
     * after a newer write, so the second answer carries a newer record. It was rejected when the converter told
     * the two deliveries apart by the record answered instead of by the request. The admission's probe
     * (serverProbe at 670 us, admitFloor at 679 us, the server's seq 6 then) was added by hand when admissions
     * gained it (2026-11-25); the rest is the recorded run.
     */
    @Test
    void aGetDeliveredAgainAfterTheReadCompletedIsAccepted() throws Exception {
        Path work = Path.of("target", "trace-validation", "duplicated-get-after-reply");
        Path ndjson = work.resolve("run.ndjson");
        java.nio.file.Files.createDirectories(work);
        try (var in = TraceValidationTest.class.getResourceAsStream("duplicated-get-after-reply.ndjson")) {
            java.nio.file.Files.copy(in, ndjson, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        TraceValidator.Result r = new TraceValidator(SPECS, work.resolve("tlc"), Duration.ofSeconds(120),
                FarReachTraceConverter.DEFAULT_CLIENT_LINK_NANOS, 8).validate(ndjson);
        assertEquals(TraceValidator.Verdict.ACCEPTED, r.verdict(), r.summary());
    }

    @Test
    void aCleanFarReachRunIsAccepted() throws Exception {
        TraceValidator.Result r = validate(new FarReachProtocol(), 1, "clean-seed1");
        assertEquals(TraceValidator.Verdict.ACCEPTED, r.verdict(), r.summary());
        assertTrue(r.events() > 100, "a run too small to mean anything: " + r.summary());
    }

    @Test
    void aRunWithSnapshotsIsAccepted() throws Exception {
        TraceValidator.Result r = validate(new FarReachProtocol().withSnapshotPeriodNanos(SNAPSHOT_PERIOD), 1, "snapshots-seed1");
        assertEquals(TraceValidator.Verdict.ACCEPTED, r.verdict(), r.summary());
        String trace = java.nio.file.Files.readString(r.model().resolveSibling("FarReachTraceData.tla"));
        assertTrue(trace.contains("e |-> \"snapFinish\", src |-> ") && trace.contains("loaded |-> TRUE"),
                "a run without a completed snapshot proves nothing here");
    }

    @Test
    void snapshotsIgnoringOriginalsAreRejectedAtTheSnapshotKept() throws Exception {
        TraceValidator.Result r = validate(snapshotsIgnoringOriginals(new FarReachProtocol().withSnapshotPeriodNanos(SNAPSHOT_PERIOD)),
                1, "snapshots-ignoring-originals");
        assertEquals(TraceValidator.Verdict.REJECTED, r.verdict(), r.summary());
        assertTrue(r.failedDescription().startsWith("e=snapFinish"), r.summary());
    }

    @Test
    void serversIgnoringSequenceNumbersAreRejectedAtAServerEvent() throws Exception {
        TraceValidator.Result r = validate(new FarReachProtocol().withServers(ServerIgnoringSequenceNumbers::new),
                Long.getLong("bugSeed", 3), "server-ignores-seq");
        assertEquals(TraceValidator.Verdict.REJECTED, r.verdict(), r.summary());
        assertTrue(r.failedDescription().startsWith("e=serverPut"), r.summary());
    }

    @Test
    void admissionMarkingRecordsLatestIsRejectedAtAReadTheSwitchAnswered() throws Exception {
        TraceValidator.Result r = validate(admissionMarkingLatest(new FarReachProtocol()),
                Long.getLong("bugSeed", 1), "admission-marks-latest");
        assertEquals(TraceValidator.Verdict.REJECTED, r.verdict(), r.summary());
        assertTrue(r.failedDescription().startsWith("e=read") && r.failedDescription().contains("how=hit"), r.summary());
    }
}
