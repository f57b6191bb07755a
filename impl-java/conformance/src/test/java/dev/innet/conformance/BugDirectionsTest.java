package dev.innet.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.innet.farreach.FarReachProtocol;
import dev.innet.farreach.client.FarReachClient;
import dev.innet.farreach.controller.Evict;
import dev.innet.farreach.controller.FarReachController;
import dev.innet.farreach.controller.Recover;
import dev.innet.farreach.server.FarReachServer;
import dev.innet.farreach.spec.FarReachConformance;
import dev.innet.farreach.spec.FarReachReplay;
import dev.innet.kv.KvOp;
import dev.innet.kv.server.ServerConfig;
import dev.innet.kv.store.RecordStore;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecReplay;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.workload.Workload;
import dev.innet.switchapi.SwitchControl;
import dev.innet.tracecheck.FarReachTraceConverter;
import dev.innet.tracecheck.TraceValidator;
import dev.innet.tracegen.TraceCase;
import dev.innet.wire.InnetMessage;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 11 item 5: which direction catches which seeded bug. Each bug is seeded one at a time (a text
 * mutation of p4/farreach.p4, or a test-only subclass of a server, controller procedure or client),
 * then checked both ways:
 *
 * <ul>
 *   <li><b>replay</b> (spec -> implementation): the curated traces (conformance/farreach) and a fixed
 *       set of generated ones ({@link #GENERATED}: TLC, seed 1, 10 behaviours of MCFarReachCache and 6
 *       each of MCFarReachRecovery and MCFarReachSnapConform) replayed on the buggy implementation; caught = some trace FAILS (a trace
 *       stopping at an unreplayable step is not a catch);</li>
 *   <li><b>trace validation</b> (implementation -> spec): one small simulated rack run with the bug
 *       (tracecheck's run shape: 2 servers, 3 clients, cache 2, 3 keys, 1.5 ms of lossy chaos), its
 *       events checked by TLC against FarReachTrace.tla; caught = REJECTED. UNKNOWN (the converter
 *       refuses runs with snapshots or switch crashes) is not a catch, and the table says why.</li>
 * </ul>
 *
 * The expected table is asserted, so a bug that stops being caught (or starts being caught: then the
 * table in docs/conformance.md is out of date) fails the test. The replay direction runs by default
 * (about 31 s measured); trace validation needs a rack run and a TLC run per bug (about 1-2 min on the 2-core
 * machine), so it runs only with {@code -Dinnet.bugDirections=full} (docs/conformance.md).
 */
class BugDirectionsTest {
    /** Behaviours TLC simulates (seed 1, depth 40) per model: the generated part of the replayed suite. */
    static final Map<String, Integer> GENERATED = new java.util.TreeMap<>(Map.of("MCFarReachCache", 10, "MCFarReachRecovery", 6,
            "MCFarReachSnapConform", 6));

    private static final Path ROOT = FarReachReplayTest.root();
    private static final Supplier<ReplayTarget> FARREACH =
            P4simReplayTarget.factory(ROOT, ROOT.resolve("p4/farreach.p4"), 1);
    private static final Map<String, List<SpecStep>> TRACES = new LinkedHashMap<>();

    enum Caught { CAUGHT, MISSED, UNKNOWN }

    @BeforeAll
    static void traces() throws Exception {
        for (Path file : ConformanceSuite.traceFiles(ROOT.resolve("conformance/farreach"))) {
            TRACES.put(file.getFileName().toString(), SpecTraces.fromTraceCase(TraceCase.read(file)));
        }
        ConformanceSuite suite = new ConformanceSuite(ROOT, new FarReachConformance(), FARREACH,
                Path.of("target", "bug-directions"));
        for (var model : GENERATED.entrySet()) {
            List<TraceCase> cases = suite.simulate(model.getKey(), model.getValue(), 40, 1);
            for (int i = 0; i < cases.size(); i++) {
                TRACES.put(model.getKey() + "-seed1-" + i, SpecTraces.fromTraceCase(cases.get(i)));
            }
        }
    }

    // ------------------------------------------------------------------ the seeded bugs

    /**
     * The switch refreshes a record from a GET_FOR_CACHE reply even while the record is being evicted
     * (the {@code evicting == 0} conjunct of FR-11's guard dropped). The guard's other branch is taken
     * only when a conservative read's reply reaches the switch after an eviction of the key started: a
     * rare interleaving (3 of 300 MCFarReachSim behaviours, seed 5). The curated
     * get-reply-during-eviction.trace holds one: the generated behaviours stopped reaching it when
     * FarReach.tla gained ClientRetry, which changed what TLC's seed 1 draws.
     */
    static final String P4_GUARD = "if (latest == 0 && evicting == 0 && meta.value_parsed";
    static final String P4_MUTANT = "if (latest == 0 && meta.value_parsed /* seeded bug: evicting ignored */";

    /** An eviction takes any EVICT_STORE_REPLY as its acknowledgement, without its request id. */
    static final class EvictIgnoringRequestIds extends Evict {
        EvictIgnoringRequestIds(FarReachController controller, int index, byte[] key) {
            super(controller, index, key, false);
        }

        @Override
        protected boolean acknowledges(InnetMessage msg) {
            return msg.op() == KvOp.EVICT_STORE_REPLY; // seeded bug: request id ignored
        }
    }

    /** A client that releases every preserved record a SNAPSHOT_DONE names, even one newer than the snapshot's. */
    static final class ClientReleasingNewerRecords extends FarReachClient {
        ClientReleasingNewerRecords(dev.innet.sim.NodeContext ctx, dev.innet.kv.client.ClientConfig config,
                dev.innet.sim.history.HistoryRecorder history) {
            super(ctx, config, history);
        }

        @Override
        protected boolean releases(PreservedRecord p, long covered) {
            return true; // seeded bug: the seq is not compared
        }
    }

    /** Servers apply numbered writes in arrival order, as if sequence numbers did not exist. */
    static final class ServerIgnoringSequenceNumbers extends FarReachServer {
        ServerIgnoringSequenceNumbers(ServerConfig config, RecordStoreOpener opener) {
            super(config, opener);
        }

        @Override
        protected RecordStore.Ordering numberedOrdering() {
            return RecordStore.Ordering.ARRIVAL;
        }
    }

    /** Recovery leaves a restarted switch's sequence counters at 0 (below the seqs servers hold), unfenced. */
    static Recover recoveryLeavingCountersAtZero(FarReachController controller) {
        return new Recover(controller, false) {
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

    /** A FarReach controller whose evictions and recoveries a bug may replace (rack runs). */
    static final class SeededController extends FarReachController {
        private final boolean evictBug;
        private final boolean recoverBug;

        SeededController(dev.innet.kv.cache.CacheControllerConfig config,
                dev.innet.farreach.controller.FarReachSettings settings, dev.innet.switchapi.SwitchHandle handle,
                dev.innet.farreach.controller.ControllerHooks hooks, boolean evictBug, boolean recoverBug) {
            super(config, settings, handle, hooks);
            this.evictBug = evictBug;
            this.recoverBug = recoverBug;
        }

        @Override
        protected Evict newEvict(int index, byte[] key, boolean resumeAtStore) {
            return evictBug && !resumeAtStore ? new EvictIgnoringRequestIds(this, index, key)
                    : super.newEvict(index, key, resumeAtStore);
        }

        @Override
        protected Recover newRecover(boolean resumeAtCollection) {
            return recoverBug && !resumeAtCollection ? recoveryLeavingCountersAtZero(this)
                    : super.newRecover(resumeAtCollection);
        }
    }

    // ------------------------------------------------------------------ replay direction

    /** What the replay of every trace on the buggy implementation found: the first failing trace, or none. */
    record ReplayFinding(Caught caught, String trace, String where) {}

    private static ReplayFinding replayAll(SpecConformance protocol, Supplier<ReplayTarget> target) {
        for (var e : TRACES.entrySet()) {
            Replayer.Result r = Replayer.replay(protocol, target, e.getValue());
            if (r instanceof Replayer.Result.Failed f) {
                return new ReplayFinding(Caught.CAUGHT, e.getKey(), "step " + f.step() + " (" + f.action() + ")"
                        + (f.variable() == null ? "" : ", " + f.variable()));
            }
        }
        return new ReplayFinding(Caught.MISSED, null, null);
    }

    /** FarReach's conformance with the replay adjusted by {@code seeded} (also FarReachReplayTest's seeded bugs). */
    static SpecConformance seeded(Function<ReplayTarget, FarReachReplay> seeded) {
        return new SpecConformance() {
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
                return seeded.apply(target);
            }
        };
    }

    private static Path mutantP4(Path dir) throws Exception {
        Path p4 = dir.resolve("p4");
        try (var files = Files.walk(ROOT.resolve("p4"))) {
            for (Path f : files.toList()) {
                Path to = p4.resolve(ROOT.resolve("p4").relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        Path program = p4.resolve("farreach.p4");
        String source = Files.readString(program);
        assertEquals(1, source.split(Pattern.quote(P4_GUARD), -1).length - 1, "the mutated guard moved");
        Files.writeString(program, source.replace(P4_GUARD, P4_MUTANT));
        return dir;
    }

    @Test
    void replayCatchesTheBugsItsTracesReach() throws Exception {
        // the real implementation first: nothing fails, so every catch below is the bug's
        assertEquals(Caught.MISSED, replayAll(new FarReachConformance(), FARREACH).caught(),
                "the real implementation fails a trace");
        Path mutant = mutantP4(Files.createTempDirectory("bug-directions"));
        Map<String, ReplayFinding> found = new LinkedHashMap<>();
        found.put("p4-refresh-while-evicting", replayAll(new FarReachConformance(),
                () -> new P4simReplayTarget(mutant, mutant.resolve("p4/farreach.p4"), 1)));
        found.put("evict-ack-without-request-id", replayAll(seeded(t -> new FarReachReplay(t,
                (c, index, key) -> new EvictIgnoringRequestIds(c, index, key))), FARREACH));
        found.put("client-releases-newer-preserved", replayAll(seeded(t -> new FarReachReplay(t).withClients(
                (ctx, config) -> new ClientReleasingNewerRecords(ctx, config, null))), FARREACH));
        found.put("server-ignores-seq", replayAll(seeded(t -> new FarReachReplay(t).withServer(ServerIgnoringSequenceNumbers::new)),
                FARREACH));
        found.put("recovery-counters-at-zero", replayAll(seeded(t -> new FarReachReplay(t).withRecovery(
                BugDirectionsTest::recoveryLeavingCountersAtZero)), FARREACH));
        found.forEach((bug, f) -> System.out.println("replay " + bug + ": " + f));
        Map<String, Caught> expected = new LinkedHashMap<>();
        expected.put("p4-refresh-while-evicting", Caught.CAUGHT);
        expected.put("evict-ack-without-request-id", Caught.CAUGHT);
        expected.put("client-releases-newer-preserved", Caught.CAUGHT);
        expected.put("server-ignores-seq", Caught.CAUGHT);
        expected.put("recovery-counters-at-zero", Caught.CAUGHT);
        Map<String, Caught> actual = new LinkedHashMap<>();
        found.forEach((bug, f) -> actual.put(bug, f.caught()));
        assertEquals(expected, actual, found.toString());
    }

    // ------------------------------------------------------------------ trace validation direction

    private static final Path SPECS = ROOT.resolve("specs/farreach");
    static final int CACHE_SLOTS = 2;

    /** tracecheck's run shape: 2 servers, 3 clients, cache 2, 3 keys (90% skew), half reads, no deletes. */
    private static Rack.Builder rack(FarReachProtocol protocol, long seed) {
        return new CampaignSettings(2, 3, CACHE_SLOTS, new Workload(3, 0.9, 0.5, 0.0, 16, 0), 2, 1_000_000, 1_500_000,
                5_000_000, 20_000, CampaignSettings.LOSSY).rack(ROOT, protocol, seed).recordTraceEvents(true)
                .out(new PrintStream(OutputStream.nullOutputStream()));
    }

    private static TraceValidator.Result validate(Rack rack, String name) throws Exception {
        Path work = Path.of("target", "bug-directions", name);
        Path ndjson = work.resolve("run.ndjson");
        rack.run();
        Files.createDirectories(work);
        rack.simulation().writeTraceEvents(ndjson);
        TraceValidator.Result r = new TraceValidator(SPECS, work.resolve("tlc"), Duration.ofSeconds(180),
                FarReachTraceConverter.DEFAULT_CLIENT_LINK_NANOS, CACHE_SLOTS).validate(ndjson);
        System.out.println("trace validation " + name + ": " + r.summary());
        return r;
    }

    private static Caught caught(TraceValidator.Result r) {
        return switch (r.verdict()) {
            case REJECTED -> Caught.CAUGHT;
            case ACCEPTED -> Caught.MISSED;
            case UNKNOWN -> Caught.UNKNOWN;
        };
    }

    @Test
    void traceValidationCatchesTheBugsItsRunsReachAndCanDecide() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue("full".equals(System.getProperty("innet.bugDirections")),
                "trace validation of the seeded bugs runs with -Dinnet.bugDirections=full (1-2 min)");
        FarReachProtocol farreach = new FarReachProtocol().withWriteRetries(false); // the spec's writes are sent once
        Path mutant = mutantP4(Files.createTempDirectory("bug-directions"));
        Map<String, TraceValidator.Result> found = new LinkedHashMap<>();
        found.put("p4-refresh-while-evicting", validate(rack(farreach, 1)
                .programSource(mutant.resolve("p4/farreach.p4")).build(), "p4-refresh-while-evicting"));
        found.put("evict-ack-without-request-id", validate(rack(farreach.withControllers(
                (config, settings, handle, hooks) -> new SeededController(config, settings, handle, hooks, true, false)), 1)
                .build(), "evict-ack-without-request-id"));
        // the early release shows only when a later switch crash's recovery lacks the released record
        Rack releasing = rack(farreach.withSnapshotPeriodNanos(500_000).withClients(ClientReleasingNewerRecords::new), 1)
                .build();
        releasing.crashSwitch(850_000, 1_400_000);
        found.put("client-releases-newer-preserved", validate(releasing, "client-releases-newer-preserved"));
        found.put("server-ignores-seq", validate(rack(farreach.withServers(ServerIgnoringSequenceNumbers::new), 3)
                .build(), "server-ignores-seq"));
        Rack crashing = rack(farreach.withControllers(
                (config, settings, handle, hooks) -> new SeededController(config, settings, handle, hooks, false, true)), 1)
                .build();
        crashing.crashSwitch(700_000, 800_000);
        found.put("recovery-counters-at-zero", validate(crashing, "recovery-counters-at-zero"));
        Map<String, Caught> expected = new LinkedHashMap<>();
        expected.put("p4-refresh-while-evicting", Caught.MISSED);
        expected.put("evict-ack-without-request-id", Caught.MISSED);
        // snapshots are validated, but no event shows a client's preserved records: the early release
        // matters only at a later switch crash, and this run has none
        expected.put("client-releases-newer-preserved", Caught.MISSED);
        expected.put("server-ignores-seq", Caught.CAUGHT);
        expected.put("recovery-counters-at-zero", Caught.CAUGHT);
        Map<String, Caught> actual = new LinkedHashMap<>();
        found.forEach((bug, r) -> actual.put(bug, caught(r)));
        List<String> summaries = new ArrayList<>();
        found.forEach((bug, r) -> summaries.add(bug + ": " + r.summary()));
        assertEquals(expected, actual, String.join("\n", summaries));
        assertFalse(found.get("server-ignores-seq").failedDescription().isEmpty());
    }
}
