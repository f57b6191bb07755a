package dev.innet.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.spec.FarReachConformance;
import dev.innet.protocol.spec.SpecStep;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A behaviour TLC generated from FarReach.tla, replayed step by step on farreach.p4 and the FarReach nodes. */
class FarReachReplayTest {
    static Path root() {
        return Path.of(System.getProperty("innet.root")).toAbsolutePath().normalize();
    }

    /** A generated case (the JSON tracegen writes) under src/test/resources/traces. */
    static List<SpecStep> trace(String resource) throws Exception {
        return SpecTraces.fromTraceCase(dev.innet.tracegen.TraceCase.read(Path.of("src/test/resources/traces", resource)));
    }

    /** farreach.p4 compiled once for every replay of this class. */
    private static final java.util.function.Supplier<dev.innet.protocol.spec.ReplayTarget> FARREACH =
            P4simReplayTarget.factory(root(), root().resolve("p4/farreach.p4"), 1);

    static Replayer.Result replay(List<SpecStep> trace) {
        return Replayer.replay(new FarReachConformance(), FARREACH, trace);
    }

    @Test
    void aSimulatedBehaviourOfTheCacheModelReplaysStepForStep() throws Exception {
        List<SpecStep> trace = trace("farreach-cache-simulate.json");
        Replayer.Result r = replay(trace);
        assertInstanceOf(Replayer.Result.Passed.class, r, r.toString());
        assertEquals(trace.size(), r.steps());
        assertTrue(Replayer.actions(trace).containsAll(List.of("AdmitInstall", "EvictFinish", "Lose", "ClientGiveUp")));
    }

    /** The index of the first step taking {@code action}. */
    private static int firstStep(List<SpecStep> trace, String action) {
        for (int i = 0; i < trace.size(); i++) {
            if (trace.get(i).actionName().equals(action)) {
                return i;
            }
        }
        throw new AssertionError("the trace never takes " + action);
    }

    @Test
    void aSpecStateTheImplementationDoesNotReachIsReportedWithTheVariableAndBothValues() throws Exception {
        List<SpecStep> trace = new ArrayList<>(trace("farreach-cache-simulate.json"));
        int at = firstStep(trace, "ServerPut");
        SpecStep real = trace.get(at);
        Map<String, Object> vars = new LinkedHashMap<>(real.vars());
        Map<Object, Object> store = new LinkedHashMap<>(((SpecStep.TlaFunction) vars.get("store")).mapping());
        store.replaceAll((k, v) -> Map.of("v", 99L, "s", 2L)); // the spec "stores" a value no write produced
        vars.put("store", new SpecStep.TlaFunction(store));
        trace.set(at, new SpecStep(real.action(), vars));
        Replayer.Result r = replay(trace);
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        assertEquals(at, f.step());
        assertEquals("ServerPut", f.action());
        assertEquals("store", f.variable());
        assertTrue(f.expected().toString().contains("99") && !f.actual().toString().contains("99"), f.toString());
    }

    @Test
    void anActionOnAMessageTheImplementationNeverSentFailsAtThatStep() throws Exception {
        List<SpecStep> trace = new ArrayList<>(trace("farreach-cache-simulate.json"));
        int at = firstStep(trace, "ServerPut");
        SpecStep real = trace.get(at);
        Map<String, Object> action = new LinkedHashMap<>(real.action());
        action.put("w", 7L); // a PUT_SEQ of a write the client never issued
        trace.set(at, new SpecStep(action, real.vars()));
        Replayer.Result r = replay(trace);
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        assertEquals(at, f.step());
        assertTrue(f.message().contains("no message"), f.message());
    }

    @TempDir
    Path mutantRoot;

    /**
     * A seeded bug in the switch: it numbers writes with a gap ({@code last + 2}), so the sequence
     * numbers it assigns are not the spec's. The trace is replayed on a copy of p4/ with the change.
     */
    @Test
    void aSwitchThatNumbersWritesWronglyFailsAtItsFirstForwardedWrite() throws Exception {
        Path p4 = mutantRoot.resolve("p4");
        try (var files = Files.walk(root().resolve("p4"))) {
            for (Path f : files.toList()) {
                Path to = p4.resolve(root().resolve("p4").relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        Path include = p4.resolve("include/ingress_cache.p4");
        String source = Files.readString(include);
        String rule = "seq_t assigned = last_assigned + 1;";
        assertEquals(1, source.split(java.util.regex.Pattern.quote(rule), -1).length - 1, "the mutated rule moved");
        Files.writeString(include, source.replace(rule, "seq_t assigned = last_assigned + 2; /* seeded bug */"));
        List<SpecStep> trace = trace("farreach-cache-simulate.json");
        Replayer.Result r = Replayer.replay(new FarReachConformance(),
                () -> new P4simReplayTarget(mutantRoot, p4.resolve("farreach.p4"), 1), trace);
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        assertEquals(firstStep(trace, "ClientWriteForward"), f.step(), f.toString());
    }

    /**
     * The committed curated traces: none fails; those without snapshots replay to the end (switch
     * crashes and recoveries included); the others replay or stop at an interleaving of a snapshot with
     * an admission or eviction, which the implementation cannot take (its controller runs one procedure
     * at a time), never at a crash or recovery.
     */
    @Test
    void everyCuratedTraceReplaysOrStopsAtANamedUnreplayableAction() throws Exception {
        int passed = 0;
        int recoveriesReplayed = 0;
        for (Path file : ConformanceSuite.traceFiles(root().resolve("conformance/farreach"))) {
            List<SpecStep> trace = SpecTraces.fromTraceCase(dev.innet.tracegen.TraceCase.read(file));
            Replayer.Result r = replay(trace);
            List<String> actions = Replayer.actions(trace);
            boolean snapshots = actions.stream().anyMatch(a -> a.startsWith("Snap"));
            if (snapshots && r instanceof Replayer.Result.NotReplayed n) {
                assertTrue(n.reason().contains("one procedure at a time"), file + ": " + r);
            } else {
                assertInstanceOf(Replayer.Result.Passed.class, r, file + ": " + r);
                passed++;
            }
            int recover = actions.indexOf("Recover");
            if (recover >= 0 && !(r instanceof Replayer.Result.Failed) && (r instanceof Replayer.Result.Passed
                    || ((Replayer.Result.NotReplayed) r).step() > recover)) {
                recoveriesReplayed++;
            }
        }
        assertTrue(passed >= 6, "at least the six replayable curated traces pass: " + passed);
        assertTrue(recoveriesReplayed >= 4, "the four curated traces whose crash is replayable get past Recover: "
                + recoveriesReplayed);
    }

    /**
     * A seeded controller bug: an eviction takes any EVICT_STORE_REPLY as its acknowledgement, without
     * its request id. A curated trace in which an acknowledgement of an earlier eviction arrives during
     * a later one must then fail where the spec discards it.
     */
    @Test
    void anEvictionThatIgnoresRequestIdsIsCaughtWhereTheSpecDiscardsAStaleAcknowledgement() throws Exception {
        List<SpecStep> trace = SpecTraces.fromTraceCase(dev.innet.tracegen.TraceCase.read(
                root().resolve("conformance/farreach/stale-ack-during-later-eviction.trace")));
        assertInstanceOf(Replayer.Result.Passed.class, replay(trace), "the real controller follows the trace");
        dev.innet.farreach.spec.FarReachReplay.EvictionFactory ignoringRequestIds = (controller, index, key) ->
                new dev.innet.farreach.controller.Evict(controller, index, key, false) {
                    @Override
                    protected boolean acknowledges(dev.innet.wire.InnetMessage msg) {
                        return msg.op() == dev.innet.kv.KvOp.EVICT_STORE_REPLY; // seeded bug: request id ignored
                    }
                };
        dev.innet.protocol.spec.SpecConformance buggy = BugDirectionsTest.seeded(t ->
                new dev.innet.farreach.spec.FarReachReplay(t, ignoringRequestIds));
        Replayer.Result r = Replayer.replay(buggy, FARREACH, trace);
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        assertEquals("DiscardAck", f.action(), f.toString());
        assertEquals(firstStep(trace, "DiscardAck"), f.step());
    }

    /**
     * A seeded recovery bug: the servers are not fenced (the restarted switch's counters are raised as
     * they should be). The curated trace in which a key admitted after the crash becomes latest at its
     * first conservative read, with no write, must then fail at Recover itself: the spec's servers hold
     * their records at the new incarnation's base after it (Fenced), the unfenced server below it.
     */
    @Test
    void aRecoveryThatDoesNotFenceTheServersIsCaughtAtRecover() throws Exception {
        List<SpecStep> trace = SpecTraces.fromTraceCase(dev.innet.tracegen.TraceCase.read(
                root().resolve("conformance/farreach/recovered-record-refreshed-without-write.trace")));
        assertInstanceOf(Replayer.Result.Passed.class, replay(trace), "the real recovery follows the trace");
        dev.innet.protocol.spec.SpecConformance unfenced = BugDirectionsTest.seeded(t ->
                new dev.innet.farreach.spec.FarReachReplay(t).withRecovery(controller ->
                        new dev.innet.farreach.controller.Recover(controller, false) {
                            @Override
                            protected long fenceBase() {
                                return 0; // seeded bug: servers not fenced
                            }
                        }));
        Replayer.Result r = Replayer.replay(unfenced, FARREACH, trace);
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        assertEquals("Recover", f.action(), f.toString());
        assertEquals("store", f.variable(), f.toString());
        assertEquals(firstStep(trace, "Recover"), f.step());
    }
}
