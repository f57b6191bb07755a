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
        assertTrue(text.contains("20 traces: ") && text.contains(" 0 failed"), text);
        // RackFail and Reconfigure are in the failure models only, MarkRemoveAtTail, VirtualWriteAtTail and
        // ServerVirtualWrite in the tail controller's models only, RetryWrite in the at-most-once models only
        // (PegasusChainConformance.notReplayable)
        assertTrue(text.contains("spec actions replayed: 9 of 15"), text);
    }

    /** MCPegasusChain_Restamp in pegasus.p4: rack 2's switch stamps w2 with its own ver_next (1) instead of keeping 2. */
    @Test
    void aSwitchStampingPassingWritesFailsAtTheSecondRack() throws Exception {
        List<SpecStep> trace = curated("head-versions-order-the-tail.trace");
        assertFailedAt(replayOnMutant(trace, "if (hdr.innet.seq != 0) {", "if (false) { /* seeded bug: every switch stamps */"),
                trace, 12, "SwitchWrite", "verNext");
    }

    /** MCPegasusChain_NoBump in pegasus.p4: w2's version 2 passes rack 2 and its ver_next stays 1. */
    @Test
    void aSwitchNotRaisingVerNextFailsWhereTheFirstWritePasses() throws Exception {
        List<SpecStep> trace = curated("head-versions-order-the-tail.trace");
        assertFailedAt(replayOnMutant(trace, "if (v >= next) {", "if (hdr.innet.seq == 0) { /* seeded bug: no bump */"),
                trace, 12, "SwitchWrite", "verNext");
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
}
