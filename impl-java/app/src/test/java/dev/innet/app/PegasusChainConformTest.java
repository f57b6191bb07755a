package dev.innet.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import dev.innet.conformance.P4Mutant;
import dev.innet.conformance.P4simReplayTarget;
import dev.innet.conformance.Replayer;
import dev.innet.conformance.SpecTraces;
import dev.innet.kv.store.StoredRecord;
import dev.innet.pegasus.server.ClientTable;
import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.protocol.spec.ReplayTarget.Emitted;
import dev.innet.sim.Clock;
import dev.innet.sim.DurableStore;
import dev.innet.sim.Network;
import dev.innet.sim.NodeContext;
import dev.innet.sim.RandomSource;
import dev.innet.sim.Timers;
import dev.innet.sim.TraceEvent;
import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.UdpFrame;
import java.util.function.UnaryOperator;
import dev.innet.pegasus.chain.ChainRackController;
import dev.innet.pegasus.server.PegasusServer;
import dev.innet.pegasus.spec.PegasusChainConformance;
import dev.innet.pegasus.spec.PegasusChainReplay;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.rack.RackRuns;
import dev.innet.tracegen.TraceCase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PegasusChain.tla's behaviours (§7) replayed step by step on two rack switches and a core running
 * pegasus.p4, the chain's servers and clients (docs/conformance.md, "Pegasus across racks"): the curated
 * traces and simulated behaviours replay, and the spec's refuted variants seeded into pegasus.p4, and a
 * server that applies lower versions, fail at the step where the implementation leaves the spec.
 */
class PegasusChainConformTest {
    private static final Path ROOT = RackRuns.root();
    private static final Path CURATED = ROOT.resolve("conformance/pegasus-chain");
    private static final Supplier<ReplayTarget> PEGASUS = P4simReplayTarget.factory(ROOT, ROOT.resolve("p4/pegasus.p4"), 1);

    @TempDir
    Path out;

    private static List<SpecStep> curated(String name) throws Exception {
        return SpecTraces.fromTraceCase(TraceCase.read(CURATED.resolve(name)));
    }

    /** The trace replayed on a copy of pegasus.p4 whose {@code rule} is replaced (P4Mutant). */
    private Replayer.Result replayOnMutant(List<SpecStep> trace, String rule, String replacement) throws Exception {
        Path program = P4Mutant.of(ROOT, out, "pegasus.p4", rule, replacement);
        return Replayer.replay(new PegasusChainConformance(), () -> new P4simReplayTarget(out, program, 1), trace);
    }

    /** The curated trace on pegasus.p4 with {@code rule} replaced must fail at {@code step}, on {@code variable}. */
    private void assertMutantFailsAt(String traceName, String rule, String replacement, int step, String action,
            String variable) throws Exception {
        List<SpecStep> trace = curated(traceName);
        assertFailedAt(replayOnMutant(trace, rule, replacement), trace, step, action, variable);
    }

    private static void assertFailedAt(Replayer.Result r, List<SpecStep> trace, int step, String action, String variable) {
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        assertEquals(action, trace.get(step).actionName(), "the trace moved");
        assertEquals(step, f.step(), f.toString());
        assertEquals(variable, f.variable(), f.toString());
    }

    @Test
    void everyCuratedTraceReplaysToItsEnd() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(CURATED)) {
            files = s.filter(p -> p.toString().endsWith(".trace")).sorted().toList();
        }
        assertTrue(files.size() >= 3, "a curated set: " + files);
        for (Path f : files) {
            Replayer.Result r = Replayer.replay(new PegasusChainConformance(), PEGASUS,
                    SpecTraces.fromTraceCase(TraceCase.read(f)));
            assertInstanceOf(Replayer.Result.Passed.class, r, f.getFileName() + ": " + r);
        }
    }

    /** ./innet conform --protocol pegasus-chain on behaviours TLC simulates: none fails, every action is replayed. */
    @Test
    void simulatedBehavioursReplayWithoutAFailure() {
        System.setProperty("innet.root", ROOT.toString());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream previous = System.out;
        int code;
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            code = Cli.run("innet conform", new ConformMain(), new String[] {"--protocol", "pegasus-chain", "--simulate", "8",
                "--seed", "1", "--out", out.toString()}, System.out, System.err);
        } finally {
            System.setOut(previous);
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text);
        // 10 curated traces and 8 behaviours of each of the 10 conformance models
        assertTrue(text.contains("90 traces: ") && text.contains(" 0 failed"), text);
        // every action, issue 16's removal rewrite (MCPegasusChainRewrite) included
        assertTrue(text.contains("spec actions replayed: 17 of 17"), text);
    }

    /**
     * A seeded bug in the tail's controller: its removal rewrite writes home's copy, not the newest of the
     * rack's copies (PegasusChain.tla's BugRewriteHomeCopy; a test-only subclass). Among behaviours of
     * MCPegasusChainRewrite, one whose newest copy is off home fails where the tail's switch stamps the
     * rewrite: the RW in flight carries another value than the spec's.
     */
    @Test
    void aTailRewritingHomesCopyFailsAtTheRewrite() throws Exception {
        PegasusChainConformance buggy = new PegasusChainConformance(target -> new PegasusChainReplay(target,
                PegasusServer::new, (config, handle, rack, placement) -> new ChainRackController(config, handle, rack,
                        placement) {
                    @Override
                    protected boolean rewritesHomeCopy() {
                        return true; // seeded bug: home's copy, whatever the rack's other servers hold
                    }
                }));
        Replayer.Result.Failed failed = null;
        for (TraceCase c : new dev.innet.conformance.ConformanceSuite(ROOT, buggy, PEGASUS, out)
                .simulate("MCPegasusChainRewrite", 40, 60, 1)) {
            if (Replayer.replay(buggy, PEGASUS, SpecTraces.fromTraceCase(c)) instanceof Replayer.Result.Failed f) {
                failed = f;
                break;
            }
        }
        assertTrue(failed != null, "no behaviour made the seeded bug visible");
        assertEquals("RemovalRewriteAtTail", failed.action(), failed.toString());
        assertEquals("net", failed.variable(), failed.toString());
    }

    /** MCPegasusChain_Restamp in pegasus.p4: rack 2's switch stamps w2 with its own ver_next (1) instead of keeping 2. */
    @Test
    void aSwitchStampingPassingWritesFailsAtTheSecondRack() throws Exception {
        assertMutantFailsAt("head-versions-order-the-tail.trace", "if (hdr.innet.seq != 0) {",
                "if (false) { /* seeded bug: every switch stamps */", 12, "SwitchWrite", "verNext");
    }

    /** MCPegasusChain_NoBump in pegasus.p4: w2's version 2 passes rack 2 and its ver_next stays 1. */
    @Test
    void aSwitchNotRaisingVerNextFailsWhereTheFirstWritePasses() throws Exception {
        assertMutantFailsAt("head-versions-order-the-tail.trace", "if (v >= next) {",
                "if (hdr.innet.seq == 0) { /* seeded bug: no bump */", 12, "SwitchWrite", "verNext");
    }

    /** A server that applies any version: w1, late, overwrites w2 at the head's server. */
    @Test
    void aServerApplyingLowerVersionsFailsAtTheLateWrite() throws Exception {
        List<SpecStep> trace = curated("late-write-superseded-in-every-rack.trace");
        Replayer.Result r = Replayer.replay(new PegasusChainConformance(target -> new PegasusChainReplay(target,
                (rack, opener, monitor, role) -> new PegasusServer(rack, opener, monitor, role) {
                    @Override
                    protected boolean accepts(Optional<StoredRecord> current, long version) {
                        return true; // seeded bug: MCPegasus_AcceptLower
                    }
                })), PEGASUS, trace);
        assertFailedAt(r, trace, 11, "ServerWrite", "store");
    }

    /** MCPegasusChain_AddAtVerNext: a tail controller that lets ADD_KEY take ver_next - 1 (2) instead of home's version (0). */
    @Test
    void aTailAddingTheKeyAtItsVerNextFailsAtTheAddition() throws Exception {
        List<SpecStep> trace = curated("tail-adds-key-below-its-ver-next.trace");
        Replayer.Result r = Replayer.replay(new PegasusChainConformance(target -> new PegasusChainReplay(target,
                PegasusServer::new, (config, handle, rack, placement) -> new ChainRackController(config, handle, rack, placement) {
                    @Override
                    protected boolean addsKeysAtHomesVersion() {
                        return false; // seeded bug: one rack's rule
                    }
                })), PEGASUS, trace);
        assertFailedAt(r, trace, 4, "AddKeyAtTail", "verCompleted");
    }

    /** The replay with each server made by {@code servers} (a seeded bug). */
    private static Replayer.Result replayWithServers(List<SpecStep> trace, PegasusChainReplay.ServerFactory servers) {
        return Replayer.replay(new PegasusChainConformance(target -> new PegasusChainReplay(target, servers)), PEGASUS, trace);
    }

    /** MCPegasusChain_IgnoreTable: a detector that never finds the request, so the head executes the retry again under 2. */
    @Test
    void aDetectorExecutingARetryAgainFailsWhereTheRetryReachesTheHead() throws Exception {
        List<SpecStep> trace = curated("retry-passed-down-under-recorded-version.trace");
        Replayer.Result r = replayWithServers(trace, (rack, opener, monitor, role) -> new PegasusServer(rack, opener, monitor, role) {
            @Override
            protected Optional<ClientTable.Entry> recordedRequest(UdpFrame f, InnetMessage m) {
                return Optional.empty(); // seeded bug: the client table is never consulted
            }
        });
        assertFailedAt(r, trace, 12, "ServerWrite", "store");
    }

    /** pegasus.p4 recording mark = ver_next - 1: home's reply at version 1 would then remove the key. */
    @Test
    void aSwitchMarkingBelowItsVerNextFailsAtTheMark() throws Exception {
        assertMutantFailsAt("mark-above-home-reply-keeps-key.trace", "mark_ver.write(index, next);",
                "mark_ver.write(index, next - 1); /* seeded bug */", 3, "MarkRemoveAtTail", "tailMark");
    }

    /** pegasus.p4 removing a marked key on any reply from home, without comparing its version with the mark. */
    @Test
    void aSwitchRemovingWithoutTheMarksGuardFailsAtHomesReplyBelowTheMark() throws Exception {
        assertMutantFailsAt("mark-above-home-reply-keeps-key.trace", "&& s == home && v >= marked) {",
                "&& s == home) { /* seeded bug: no guard */", 14, "SwitchReply", "rset");
    }

    /** Home ignoring the virtual write's copy list: nothing reaches server 2. */
    @Test
    void homeIgnoringTheVirtualWritesCopyListFailsAtTheVirtualWrite() throws Exception {
        List<SpecStep> trace = curated("virtual-write-copies-home-version.trace");
        Replayer.Result r = replayWithServers(trace, (rack, opener, monitor, role) -> new PegasusServer(rack, opener, monitor, role) {
            @Override
            public void onPacket(byte[] bytes) {
                super.onPacket(rewriteVirtualWrite(bytes, (m, ext) -> PegasusPacket.message(m.op(), m.flags(), m.status(),
                        m.reqId(), m.key(), m.seq(), new PegasusExt(0, ext.load(), ext.server(), ext.pflags()), m.value())));
            }
        });
        assertFailedAt(r, trace, 17, "ServerVirtualWrite", "net");
    }

    /** A tail controller whose VIRTUAL_WRITE carries ver_completed - 1 (home would relabel nothing, the copy be stale). */
    @Test
    void aControllerVirtuallyWritingOneVersionLowFailsAtTheVirtualWrite() throws Exception {
        List<SpecStep> trace = curated("virtual-write-copies-home-version.trace");
        Replayer.Result r = Replayer.replay(new PegasusChainConformance(target -> new PegasusChainReplay(target,
                PegasusServer::new, (config, handle, rack, placement) -> new ChainRackController(config, handle, rack, placement) {
                    @Override
                    public void onStart(NodeContext context) {
                        super.onStart(sendingThrough(context, frame -> rewriteVirtualWrite(frame, (m, ext) ->
                                PegasusPacket.message(m.op(), m.flags(), m.status(), m.reqId(), m.key(), m.seq() - 1, ext,
                                        m.value()))));
                    }
                })), PEGASUS, trace);
        assertFailedAt(r, trace, 16, "VirtualWriteAtTail", "net");
    }

    /** A rack switch that survives its rack's failure (its crash loses nothing): the failure is not the spec's. */
    @Test
    void aSwitchSurvivingItsRacksFailureFailsAtTheFailure() throws Exception {
        List<SpecStep> trace = curated("tail-fails-head-serves-its-writes.trace");
        Replayer.Result r = Replayer.replay(new PegasusChainConformance(), () -> surviving(PEGASUS.get()), trace);
        assertFailedAt(r, trace, 3, "RackFail", "failedRacks");
    }

    /** A server that ignores the configuration service's CHAIN_CONFIG: it keeps the failed head in its view. */
    @Test
    void aServerIgnoringTheNewViewFailsAtTheReconfiguration() throws Exception {
        List<SpecStep> trace = curated("head-fails-new-head-stamps-above.trace");
        Replayer.Result r = replayWithServers(trace, (rack, opener, monitor, role) -> new PegasusServer(rack, opener, monitor, role) {
            @Override
            public void onPacket(byte[] bytes) {
                PegasusPacket p = PegasusPacket.decodeOrDrop(bytes, f -> true, () -> {});
                if (p == null || p.message().op() != PegasusOp.CHAIN_CONFIG) {
                    super.onPacket(bytes); // seeded bug: announcements are dropped unanswered
                }
            }
        });
        assertFailedAt(r, trace, 10, "Reconfigure", "liveRacks");
    }

    /** The frame with a VIRTUAL_WRITE's message rewritten by {@code change}; any other frame as it is. */
    private static byte[] rewriteVirtualWrite(byte[] bytes, java.util.function.BiFunction<InnetMessage, PegasusExt, InnetMessage> change) {
        PegasusPacket p = PegasusPacket.decodeOrDrop(bytes, f -> true, () -> {});
        if (p == null || p.message().op() != PegasusOp.VIRTUAL_WRITE) {
            return bytes;
        }
        UdpFrame f = p.frame();
        return new UdpFrame(f.dstMac(), f.srcMac(), f.srcIp(), f.dstIp(), f.srcPort(), f.dstPort(),
                change.apply(p.message(), p.ext()).encode()).encode();
    }

    /** {@code context} with every frame the node sends passed through {@code rewrite} first. */
    private static NodeContext sendingThrough(NodeContext context, UnaryOperator<byte[]> rewrite) {
        return new NodeContext() {
            @Override
            public int hostNumber() {
                return context.hostNumber();
            }

            @Override
            public int incarnation() {
                return context.incarnation();
            }

            @Override
            public Clock clock() {
                return context.clock();
            }

            @Override
            public RandomSource random() {
                return context.random();
            }

            @Override
            public Network network() {
                return frame -> context.network().send(rewrite.apply(frame));
            }

            @Override
            public Timers timers() {
                return context.timers();
            }

            @Override
            public DurableStore durable() {
                return context.durable();
            }

            @Override
            public void log(String message) {
                context.log(message);
            }

            @Override
            public void trace(TraceEvent event) {
                context.trace(event);
            }
        };
    }

    /** {@code target}, whose crash loses nothing; every switch it makes (another()) likewise. */
    private static ReplayTarget surviving(ReplayTarget target) {
        return new ReplayTarget() {
            @Override
            public List<Emitted> inject(int port, byte[] frame) {
                return target.inject(port, frame);
            }

            @Override
            public SwitchControl control() {
                return target.control();
            }

            @Override
            public void crash() {
                // seeded bug: the switch keeps running through its rack's failure
            }

            @Override
            public ReplayTarget another() {
                return surviving(target.another());
            }
        };
    }
}
