package dev.innet.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.kv.KvOp;
import dev.innet.kv.cache.CacheControlNames;
import dev.innet.kv.cache.SeqProbe;
import dev.innet.kv.server.StorageServer;
import dev.innet.kv.store.RecordStore;
import dev.innet.netcache.Admit;
import dev.innet.netcache.NetCacheController;
import dev.innet.netcache.spec.NetCacheConformance;
import dev.innet.netcache.spec.NetCacheReplay;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecReplay;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.protocol.spec.TlaValues;
import dev.innet.switchapi.SwitchControl;
import dev.innet.tracegen.TraceCase;
import dev.innet.wire.InnetMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** NetCache.tla's behaviours replayed step by step on netcache.p4, the storage server, clients and NetCache's controller. */
class NetCacheReplayTest {
    private static final Path ROOT = FarReachReplayTest.root();
    /** netcache.p4 compiled once for every replay of this class. */
    private static final Supplier<ReplayTarget> NETCACHE =
            P4simReplayTarget.factory(ROOT, ROOT.resolve("p4/netcache.p4"), 1);

    private static List<SpecStep> curated(String name) throws Exception {
        return SpecTraces.fromTraceCase(TraceCase.read(ROOT.resolve("conformance/netcache").resolve(name)));
    }

    private static Replayer.Result replay(List<SpecStep> trace) {
        return Replayer.replay(new NetCacheConformance(), NETCACHE, trace);
    }

    /** The index of the first step taking {@code action} that {@code also} accepts. */
    private static int firstStep(List<SpecStep> trace, String action, java.util.function.Predicate<Integer> also) {
        for (int i = 1; i < trace.size(); i++) {
            if (trace.get(i).actionName().equals(action) && also.test(i)) {
                return i;
            }
        }
        throw new AssertionError("the trace never takes " + action + " as wanted");
    }

    @Test
    void everyCuratedTracePasses() throws Exception {
        int passed = 0;
        for (Path file : ConformanceSuite.traceFiles(ROOT.resolve("conformance/netcache"))) {
            List<SpecStep> trace = SpecTraces.fromTraceCase(TraceCase.read(file));
            Replayer.Result r = replay(trace);
            assertInstanceOf(Replayer.Result.Passed.class, r, file + ": " + r);
            assertEquals(trace.size(), r.steps());
            passed++;
        }
        assertEquals(8, passed, "the eight curated traces");
    }

    /**
     * A record numbered before a switch restart refills a key admitted after it once the admission's probe
     * has answered: the fill floor is the server's record, whichever switch numbered it (under the counter
     * rule the restarted switch refused it until the key's next write). The write after it refills again.
     * The replay checks valid[k] and fillFloor[k] after each step.
     */
    @Test
    void aRecordNumberedBeforeARestartRefillsOnceTheProbeHasAnswered() throws Exception {
        List<SpecStep> trace = curated("restart-old-record-refills-at-floor.trace");
        int restart = firstStep(trace, "SwitchRestart", i -> true);
        long restartedCounter = ((Number) TlaValues.at(trace.get(restart), "ctr", "k2")).longValue();
        int floor = firstStep(trace, "AdmitFloor", i -> i > restart);
        int refilled = firstStep(trace, "SwitchGetReply", i -> i > floor
                && Boolean.TRUE.equals(TlaValues.at(trace.get(i), "valid", "k2"))
                && ((Number) TlaValues.asRecord(trace.get(i).param("rec")).get("s")).longValue() < restartedCounter);
        int written = firstStep(trace, "ClientWrite", i -> i > refilled);
        firstStep(trace, "SwitchGetReply", i -> i > written
                && Boolean.TRUE.equals(TlaValues.at(trace.get(i), "valid", "k2")));
        Replayer.Result r = replay(trace);
        assertInstanceOf(Replayer.Result.Passed.class, r, r.toString());
        assertEquals(trace.size(), r.steps());
    }

    /**
     * A seeded bug in the controller: the admission writes FLOOR_UNKNOWN whatever its probe answered (the
     * answer dropped; a test-only Admit). The replay fails at the first AdmitFloor, variable fillFloor.
     */
    @Test
    void aControllerThatDropsTheProbesAnswerFailsAtAdmitFloor() throws Exception {
        List<SpecStep> trace = curated("invalidate-then-refill.trace");
        Replayer.Result.Failed f = failsWith(trace, admissions((controller, index, key) -> new Admit(controller, index, key) {
            @Override
            protected long fillFloor(long probed) {
                return CacheControlNames.FLOOR_UNKNOWN; // seeded bug: the probe's answer dropped
            }
        }));
        assertEquals(firstStep(trace, "AdmitFloor", i -> true), f.step(), f.toString());
        assertEquals("fillFloor", f.variable());
    }

    /**
     * A seeded bug in the controller: the admission takes any SEQ_PROBE_REPLY of its key as its own
     * (NetCache.tla's BugProbeAnyAdmission; a test-only Admit). After a restart abandoned admission 1, its
     * probe's reply reaches admission 2, which takes it: the replay fails at that DiscardProbeReply.
     */
    @Test
    void aControllerThatTakesAnEarlierAdmissionsProbeReplyFailsAtDiscardProbeReply() throws Exception {
        List<SpecStep> trace = curated("stale-probe-reply-discarded.trace");
        Replayer.Result.Failed f = failsWith(trace, admissions((controller, index, key) -> new Admit(controller, index, key) {
            @Override
            protected SeqProbe newProbe() {
                return new SeqProbe(controller, key) {
                    @Override
                    public boolean answers(InnetMessage msg) {
                        // seeded bug: the request id is not compared
                        return msg.op() == KvOp.SEQ_PROBE_REPLY && Arrays.equals(msg.key(), key);
                    }
                };
            }
        }));
        assertEquals(firstStep(trace, "DiscardProbeReply", i -> true), f.step(), f.toString());
        assertTrue(f.message().contains("another admission"), f.toString());
    }

    /**
     * A seeded bug in the controller: the probe's retry timer resends nothing (a test-only controller).
     * The replay fails at ProbeResend, where the spec resends the lost probe.
     */
    @Test
    void aControllerThatNeverResendsTheProbeFailsAtProbeResend() throws Exception {
        List<SpecStep> trace = curated("stale-probe-reply-discarded.trace");
        Replayer.Result.Failed f = failsWith(trace, (config, handle) -> new NetCacheReplay.ReplayController(config, handle) {
            @Override
            protected void onProtocolTimer(long timerId) {
                // seeded bug: a lost probe is never resent
            }
        });
        assertEquals(firstStep(trace, "ProbeResend", i -> true), f.step(), f.toString());
    }

    /** A test-only admission of a seeded controller. */
    @FunctionalInterface
    private interface SeededAdmit {
        Admit create(NetCacheController controller, int index, byte[] key);
    }

    /** The replay's controller, its admissions made by {@code seeded}. */
    private static NetCacheReplay.ControllerFactory admissions(SeededAdmit seeded) {
        return (config, handle) -> new NetCacheReplay.ReplayController(config, handle) {
            @Override
            protected Admit newAdmit(int index, byte[] key) {
                return seeded.create(this, index, key);
            }
        };
    }

    /** {@code trace} replayed with a seeded controller, which must make the replay fail. */
    private static Replayer.Result.Failed failsWith(List<SpecStep> trace, NetCacheReplay.ControllerFactory controllers) {
        Function<ReplayTarget, SpecReplay> buggy = target -> new NetCacheReplay(target, StorageServer::new, controllers);
        Replayer.Result r = Replayer.replay(conformance(buggy), NETCACHE, trace);
        return assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
    }

    @Test
    void aCorruptedTraceFailsAtTheCorruptedStepNamingTheVariableAndBothValues() throws Exception {
        List<SpecStep> trace = new ArrayList<>(curated("invalidate-then-refill.trace"));
        int at = firstStep(trace, "SwitchGetReply", i -> true);
        SpecStep real = trace.get(at);
        Map<String, Object> vars = new LinkedHashMap<>(real.vars());
        Map<Object, Object> ctr = new LinkedHashMap<>(((SpecStep.TlaFunction) vars.get("ctr")).mapping());
        ctr.replaceAll((k, v) -> 9L); // no step sets a counter to 9
        vars.put("ctr", new SpecStep.TlaFunction(ctr));
        trace.set(at, new SpecStep(real.action(), vars));
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, replay(trace));
        assertEquals(at, f.step());
        assertEquals("SwitchGetReply", f.action());
        assertEquals("ctr", f.variable());
        assertTrue(f.expected().toString().contains("9") && !f.actual().toString().contains("9"), f.toString());
    }

    /**
     * A seeded bug in the server: it applies every numbered write as it arrives, newer or not (a
     * test-only subclass). The reordered write overwrites the newer record, and the replay fails there.
     */
    @Test
    void aServerThatIgnoresSequenceNumbersFailsAtTheLateWrite() throws Exception {
        List<SpecStep> trace = curated("reordered-write-ignored.trace");
        Function<ReplayTarget, SpecReplay> buggy = target -> new NetCacheReplay(target,
                (config, stores) -> new StorageServer(config, stores) {
                    @Override
                    protected RecordStore.Ordering numberedOrdering() {
                        return RecordStore.Ordering.ARRIVAL; // seeded bug: sequence numbers ignored
                    }
                });
        Replayer.Result r = Replayer.replay(conformance(buggy), NETCACHE, trace);
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        int late = firstStep(trace, "ServerPut", i -> ((Number) trace.get(i).param("s")).longValue() == 1L);
        assertEquals(late, f.step(), f.toString());
        assertEquals("ServerPut", f.action());
        assertEquals("store", f.variable());
    }

    /**
     * A seeded bug in the controller: a restarted switch keeps its counters at 0 (NetCache.tla's F1, the
     * implementation before its fix; a test-only subclass). The replay fails at the restart, where the
     * spec's counters jump above every earlier seq.
     */
    @Test
    void aControllerThatDoesNotRaiseTheCountersFailsAtTheRestart() throws Exception {
        List<SpecStep> trace = curated("restart-old-record-refills-at-floor.trace");
        Replayer.Result.Failed f = failsWith(trace, (config, handle) -> new NetCacheReplay.ReplayController(config, handle) {
            @Override
            protected long raiseSequenceCounters(SwitchControl control, long base) {
                return 0; // seeded bug: the fresh switch numbers from 0 again
            }
        });
        assertEquals(firstStep(trace, "SwitchRestart", i -> true), f.step(), f.toString());
        assertEquals("ctr", f.variable());
    }

    @TempDir
    Path mutantRoot;

    /**
     * A seeded bug in the switch: NC-8 refills an invalid record from any GET_FOR_CACHE_REPLY, without
     * "seq >= refresh_bound" (a copy of p4/ with the guard removed). The stale reply is cached, and the
     * replay fails where the spec drops it.
     */
    @Test
    void aSwitchWithoutTheRefillSeqGuardFailsAtTheStaleReply() throws Exception {
        Path p4 = mutantRoot.resolve("p4");
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
        Path program = p4.resolve("netcache.p4");
        String source = Files.readString(program);
        String guard = "if (hdr.innet.status == STATUS_OK && meta.value_parsed\n"
                + "                        && hdr.innet.seq >= refresh_bound) {";
        assertEquals(1, source.split(java.util.regex.Pattern.quote(guard), -1).length - 1, "the mutated rule moved");
        Files.writeString(program, source.replace(guard,
                "if (hdr.innet.status == STATUS_OK && meta.value_parsed) { /* seeded bug */"));
        List<SpecStep> trace = curated("stale-refill-dropped.trace");
        Replayer.Result r = Replayer.replay(new NetCacheConformance(),
                () -> new P4simReplayTarget(mutantRoot, program, 1), trace);
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        assertEquals(firstStep(trace, "SwitchGetReply", i -> true), f.step(), f.toString());
        assertEquals("valid", f.variable());
    }

    private static SpecConformance conformance(Function<ReplayTarget, SpecReplay> replay) {
        return new SpecConformance() {
            @Override
            public String spec() {
                return "specs/netcache/NetCache.tla";
            }

            @Override
            public List<String> conformanceModels() {
                return List.of();
            }

            @Override
            public SpecReplay newReplay(ReplayTarget target) {
                return replay.apply(target);
            }
        };
    }
}
