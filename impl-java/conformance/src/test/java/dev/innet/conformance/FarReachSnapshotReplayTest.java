package dev.innet.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.controller.CachedRecord;
import dev.innet.farreach.controller.FarReachController;
import dev.innet.farreach.controller.Snap;
import dev.innet.farreach.spec.FarReachConformance;
import dev.innet.farreach.spec.FarReachReplay;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecReplay;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.switchapi.SwitchControl;
import dev.innet.tracegen.TlcModel;
import dev.innet.tracegen.TlcSimulation;
import dev.innet.tracegen.TraceCase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Behaviours with snapshots (and no switch crash) that TLC simulates from MCFarReachSnapConform (a
 * conformance-only model: 1 key, 2 clients, one admission, no eviction, 3 snapshots), replayed step by
 * step: SnapStart, each SnapLoad(k), the originals the switch sends inside write hits, and SnapFinish
 * with its SNAPSHOT_DONE to every client.
 */
class FarReachSnapshotReplayTest {
    private static final int BEHAVIOURS = 30;
    private static final int DEPTH = 30;
    private static final long SEED = 1;

    @TempDir
    static Path work;

    private static List<List<SpecStep>> traces;

    @BeforeAll
    static void simulate() throws Exception {
        Path root = FarReachReplayTest.root();
        traces = new ArrayList<>();
        for (TraceCase c : TlcSimulation.run(new TlcModel(root.resolve("specs/farreach"), "MCFarReachSnapConform"), root,
                BEHAVIOURS, DEPTH, SEED, work, Duration.ofMinutes(5)).cases()) {
            traces.add(SpecTraces.fromTraceCase(c));
        }
    }

    private static Replayer.Result replay(SpecConformance conformance, List<SpecStep> trace) {
        Path root = FarReachReplayTest.root();
        return Replayer.replay(conformance, () -> new P4simReplayTarget(root, root.resolve("p4/farreach.p4"), 1), trace);
    }

    /**
     * Every behaviour replays, or stops where the spec interleaves a snapshot with an admission or an
     * eviction (the controller runs one procedure at a time) or SnapFinish would release less than the
     * implementation; several pass end to end through SnapFinish.
     */
    @Test
    void simulatedSnapshotBehavioursReplayOrStopAtANamedInterleaving() {
        int passedThroughSnapFinish = 0;
        for (List<SpecStep> trace : traces) {
            Replayer.Result r = replay(new FarReachConformance(), trace);
            if (r instanceof Replayer.Result.NotReplayed n) {
                assertTrue(List.of("SnapStart", "AdmitInstall", "EvictStart", "SnapFinish").contains(n.action()), r.toString());
                assertTrue(n.reason().contains("one procedure at a time") || n.reason().contains("SNAPSHOT_DONE"),
                        r.toString());
                continue;
            }
            assertInstanceOf(Replayer.Result.Passed.class, r, r.toString());
            if (Replayer.actions(trace).contains("SnapFinish")) {
                passedThroughSnapFinish++;
            }
        }
        assertTrue(passedThroughSnapFinish >= 5, passedThroughSnapFinish + " behaviours passed through SnapFinish");
    }

    /**
     * The originals are checked step by step: if the spec has already sent k's original (its
     * {@code snapSent[k]} is TRUE before a write hit), the switch's SNAPSHOT_ORIGINAL in that write hit
     * is one the spec does not send, and the replay fails at that step, naming it.
     */
    @Test
    void anOriginalTheSpecDoesNotSendFailsTheStepThatCarriesIt() {
        int checked = 0;
        for (List<SpecStep> whole : traces) {
            int finish = snapFinishAfterAChangeBeforeLoad(whole);
            if (finish < 0 || !(replay(new FarReachConformance(), whole.subList(0, finish + 1))
                    instanceof Replayer.Result.Passed)) {
                continue;
            }
            List<SpecStep> trace = new ArrayList<>(whole.subList(0, finish + 1));
            int hit = firstWriteHitSendingAnOriginal(trace);
            if (hit < 0) {
                continue; // the original was sent by a SwitchGetReply
            }
            SpecStep before = trace.get(hit - 1);
            Map<String, Object> vars = new java.util.LinkedHashMap<>(before.vars());
            Map<Object, Object> sent = new java.util.LinkedHashMap<>(((SpecStep.TlaFunction) vars.get("snapSent")).mapping());
            sent.replaceAll((k, v) -> true); // the spec "already sent" every original
            vars.put("snapSent", new SpecStep.TlaFunction(sent));
            trace.set(hit - 1, new SpecStep(before.action(), vars));
            Replayer.Result r = replay(new FarReachConformance(), trace);
            Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
            assertEquals(hit, f.step(), f.toString());
            assertTrue(f.message().contains("SNAPSHOT_ORIGINAL"), f.message());
            checked++;
        }
        assertTrue(checked >= 1, "no simulated behaviour has a write hit that sends an original");
    }

    /** The index of the first write hit in which the spec's switch sends an original; -1 if none. */
    private static int firstWriteHitSendingAnOriginal(List<SpecStep> trace) {
        for (int i = 1; i < trace.size(); i++) {
            if (trace.get(i).actionName().equals("ClientWriteHit")
                    && !trace.get(i - 1).var("snapOrig").equals(trace.get(i).var("snapOrig"))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The implementation's SNAPSHOT_DONE also covers the records evicted since the last snapshot (the
     * server stores them); the spec's SnapFinish releases only what the snapshot covers. In this
     * behaviour a client's write hit is preserved, the key is evicted, and a snapshot of the then empty
     * cache finishes: the client would release a record the spec keeps, so the replay stops there as
     * not replayable, saying why (without that check it fails on {@code pres}).
     *
     * <p>The trace: GenerateMain's TLC simulation (seed 5, depth 16, behaviour 1334) of MCFarReachSnapshot
     * with MaxReads = 0 and MaxAdmit = 1. Tighter bounds only remove behaviours, so it is a behaviour of
     * MCFarReachSnapshot too, and the file names that model.
     */
    @Test
    void aSnapFinishThatWouldReleaseARecordOnlyAnEvictionCoversIsNotReplayable() throws Exception {
        List<SpecStep> trace = SpecTraces.fromTraceCase(
                TraceCase.read(Path.of("src/test/resources/traces/farreach-snapshot-after-eviction.json")));
        assertEquals(List.of("Init", "ServerReportHot", "AdmitInstall", "ServerProbe", "AdmitFloor", "AdmitValidate",
                "ClientWriteHit",
                "ClientWriteHit", "EvictStart", "ServerEvict", "EvictFinish", "SnapStart", "SnapFinish"),
                trace.stream().map(SpecStep::actionName).toList());
        Replayer.Result r = replay(new FarReachConformance(), trace);
        Replayer.Result.NotReplayed n = assertInstanceOf(Replayer.Result.NotReplayed.class, r, r.toString());
        assertEquals(trace.size() - 1, n.step(), r.toString());
        assertEquals("SnapFinish", n.action());
        assertTrue(n.reason().contains("SNAPSHOT_DONE") && n.reason().contains("eviction"), n.reason());
    }

    /**
     * The index of the SnapFinish of the first snapshot in which a record changes (a write hit, which
     * makes the switch send its original) before SnapLoad loads it; -1 if there is none.
     */
    private static int snapFinishAfterAChangeBeforeLoad(List<SpecStep> trace) {
        boolean changedBeforeLoad = false;
        for (int i = 1; i < trace.size(); i++) {
            SpecStep before = trace.get(i - 1);
            SpecStep step = trace.get(i);
            String action = step.actionName();
            if (action.equals("SnapFinish") && changedBeforeLoad) {
                return i;
            }
            if (action.equals("SnapStart")) {
                changedBeforeLoad = false;
            }
            boolean originalSent = !before.var("snapOrig").equals(step.var("snapOrig"));
            if (originalSent && (action.equals("ClientWriteHit") || action.equals("SwitchGetReply"))) {
                changedBeforeLoad = true;
            }
        }
        return -1;
    }

    /**
     * A seeded controller bug: the snapshot ignores the originals the switch reports and takes each
     * record changed since the snapshot point as it is now. On a behaviour where a write hit changes
     * a record between SnapStart and its SnapLoad, the real controller passes and the seeded one fails
     * at SnapFinish, on the variable {@code snap}.
     */
    @Test
    void aSnapshotThatIgnoresOriginalsFailsAtSnapFinishOnSnap() {
        FarReachReplay.SnapshotFactory ignoringOriginals = controller -> new Snap(controller) {
            @Override
            protected Map<String, CachedRecord> changedRecords(SwitchControl c) {
                Map<String, CachedRecord> now = new TreeMap<>();
                for (String k : awaitingOriginal) {
                    byte[] key = HexFormat.of().parseHex(k);
                    for (int index : controller.directory().indices()) {
                        if (Arrays.equals(controller.directory().keyAt(index), key)) {
                            now.put(k, new CachedRecord(key, FarReachController.readRecord(c, index))); // seeded bug
                        }
                    }
                }
                return now;
            }
        };
        SpecConformance buggy = new SpecConformance() {
            @Override
            public String spec() {
                return "specs/farreach/FarReach.tla";
            }

            @Override
            public List<String> conformanceModels() {
                return List.of();
            }

            @Override
            public SpecReplay newReplay(ReplayTarget target) {
                return new FarReachReplay(target, null, ignoringOriginals);
            }
        };
        int checked = 0;
        for (List<SpecStep> whole : traces) {
            int finish = snapFinishAfterAChangeBeforeLoad(whole);
            if (finish < 0) {
                continue;
            }
            List<SpecStep> trace = whole.subList(0, finish + 1); // through that SnapFinish
            if (!(replay(new FarReachConformance(), trace) instanceof Replayer.Result.Passed)) {
                continue; // an interleaving the implementation cannot take comes first
            }
            Replayer.Result r = replay(buggy, trace);
            Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
            assertEquals(finish, f.step(), f.toString());
            assertEquals("SnapFinish", f.action(), f.toString());
            assertEquals("snap", f.variable(), f.toString());
            checked++;
        }
        assertTrue(checked >= 1, "no simulated behaviour changes a record between SnapStart and its SnapLoad");
    }
}
