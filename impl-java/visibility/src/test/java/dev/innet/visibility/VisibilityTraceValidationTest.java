package dev.innet.visibility;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.workload.Workload;
import dev.innet.tracecheck.NdjsonTrace;
import dev.innet.tracecheck.TraceFormatException;
import dev.innet.tracecheck.TraceSettings;
import dev.innet.tracecheck.TraceValidator;
import dev.innet.visibility.trace.VisibilityTraceConversion;
import dev.innet.visibility.trace.VisibilityTraceConverter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Visibility trace validation end to end (specs/visibility/VisibilityTrace.tla): small rack runs (a metadata
 * node and 2 data nodes, 3 clients, 4 keys on colliding hashes so that fallbacks, held replies and failed key
 * validations happen, the campaign's lossy, duplicating, reordering switch-server links) are converted and
 * checked by TLC. The implementation as written is accepted, with and without a switch crash, with a metadata
 * node's crash and rebuild, and with a data node's, the switch's and the switch OS's crashes in one run; a data node
 * that stamps a retried write afresh (SeededBugs.RestampDataNode, Visibility.tla's BugRestamp) is rejected at that
 * write, a switch OS that does not reload MaxTs (SeededBugs.ResyncWithoutMaxTs, BugResyncNoMaxTs) at the end of
 * its resynchronisation, data nodes that replay each key's oldest entry to a rebuilding metadata node (the seeded
 * bug data-node-replays-oldest) where the rebuild after the crash ends, a data node that forgets at its restart
 * which requests it wrote at the retried write it appends again.
 */
class VisibilityTraceValidationTest {
    private static final Path SPECS = Path.of(System.getProperty("innet.root", "../.."), "specs", "visibility");
    private static final Workload SMALL = new Workload(4, 0.5, 0.5, 0.1, 16, 0);

    private record Validated(TraceValidator.Result result, String trace) {}

    private static Validated validate(UnaryOperator<VisibilityProtocol> variant, long seed, String name) throws Exception {
        return validate(variant, seed, false, name);
    }

    /** crash: the switch crashes at 2 ms for 0.2 ms (and is resynchronised) in a 5 ms run. */
    private static Validated validate(UnaryOperator<VisibilityProtocol> variant, long seed, boolean crash, String name)
            throws Exception {
        return validate(variant, seed, crash ? rack -> rack.crashSwitch(2_000_000, 2_200_000) : null, name);
    }

    /** crashes: what crashes in a 5 ms run (null: nothing, in a 3 ms run). */
    private static Validated validate(UnaryOperator<VisibilityProtocol> variant, long seed,
            java.util.function.Consumer<Rack> crashes, String name) throws Exception {
        boolean crash = crashes != null;
        Path work = Path.of("target", "trace-validation", "visibility-" + name);
        Path ndjson = work.resolve("run.ndjson");
        Files.createDirectories(work);
        Rack rack = new CampaignSettings(3, 3, 8, SMALL, 3, 4_000_000, crash ? 5_000_000 : 3_000_000, 3_000_000, 20_000,
                CampaignSettings.LOSSY)
                .rack(RackRuns.root(), variant.apply(new VisibilityProtocol().withHasher(VisibilityCampaignTest.COLLIDING)), seed)
                .recordTraceEvents(true).out(RackRuns.QUIET).build();
        if (crash) {
            crashes.accept(rack);
        }
        rack.run();
        rack.simulation().writeTraceEvents(ndjson);
        TraceValidator.Result r = new TraceValidator(new VisibilityTraceConversion(), SPECS, work.resolve("tlc"),
                Duration.ofSeconds(120), TraceSettings.rack(null)).validate(ndjson);
        System.out.println("visibility " + name + ": " + r.summary());
        return new Validated(r, Files.readString(ndjson));
    }

    @Test
    void theImplementationAsWrittenIsAccepted() throws Exception {
        Validated v = validate(p -> p, 1, "real-seed1");
        assertEquals(TraceValidator.Verdict.ACCEPTED, v.result().verdict(), v.result().summary());
        assertTrue(v.result().events() > 100, "a run too small to mean anything: " + v.result().summary());
    }

    @Test
    void aRunWithASwitchCrashIsAccepted() throws Exception {
        Validated v = validate(p -> p, 2, true, "crash-seed2");
        assertEquals(TraceValidator.Verdict.ACCEPTED, v.result().verdict(), v.result().summary());
        assertTrue(v.trace().contains("\"event\":\"switchCrash\""), "the switch did not crash");
        assertTrue(v.trace().contains("\"event\":\"visResyncMaxTs\""), "no MaxTs reloaded after the crash");
    }

    /** The metadata node down from 2 ms to 2.3 ms: it starts again with an empty index and rebuilds it. */
    private static void crashTheMetadataNode(Rack rack) {
        rack.crashHost(2_000_000, 2_300_000, rack.servers().get(0));
    }

    @Test
    void aRunWithAMetadataNodeCrashIsAccepted() throws Exception {
        Validated v = validate(p -> p, 1, VisibilityTraceValidationTest::crashTheMetadataNode, "mdn-crash-seed1");
        assertEquals(TraceValidator.Verdict.ACCEPTED, v.result().verdict(), v.result().summary());
        assertTrue(v.trace().contains("\"incarnation\":1,\"event\":\"visMdnRebuildStart\""), "the metadata node did not restart");
        assertTrue(v.trace().contains("\"incarnation\":1,\"event\":\"visMdnRebuildRecord\""), "nothing rebuilt after the restart");
    }

    /** A data node, the switch OS and the switch each crash and restart; the switch OS's restart during the resync. */
    @Test
    void aRunWithDataNodeSwitchOsAndSwitchCrashesIsAccepted() throws Exception {
        Validated v = validate(p -> p, 1, rack -> {
            rack.crashHost(1_500_000, 1_800_000, rack.servers().get(1));
            rack.crashSwitch(2_500_000, 2_600_000);
            rack.crashHost(2_650_000, 2_900_000, dev.innet.protocol.RackPorts.CONTROLLER_HOST);
        }, "dn-os-switch-crash-seed1");
        assertEquals(TraceValidator.Verdict.ACCEPTED, v.result().verdict(), v.result().summary());
        assertTrue(v.trace().contains("\"incarnation\":1,\"event\":\"visDnWrite\""), "the crashed data node wrote nothing after");
        assertTrue(v.trace().contains("\"incarnation\":1,\"event\":\"visResyncDone\""), "the restarted switch OS did not resync");
    }

    /**
     * Data nodes that replay each key's oldest entry to a rebuilding metadata node (the seeded bug
     * data-node-replays-oldest): the rebuild after the crash ends below entries logged before it began.
     */
    @Test
    void aRebuildFromTheOldestEntriesIsRejected() throws Exception {
        UnaryOperator<VisibilityProtocol> bug = p -> (VisibilityProtocol) p
                .withSeededBug(dev.innet.protocol.Protocol.DATA_NODES_REPLAYING_OLDEST).orElseThrow();
        Validated v = validate(bug, 1, VisibilityTraceValidationTest::crashTheMetadataNode, "replays-oldest-seed1");
        assertEquals(TraceValidator.Verdict.REJECTED, v.result().verdict(), v.result().summary());
        assertTrue(v.result().failedDescription().startsWith("e=rebuilt"), v.result().summary());
    }

    /**
     * A data node that forgets, when it restarts, which requests it wrote (SeededBugs.ForgetsRequestsOnRestartDataNode):
     * in seed 5 a write it appended before its crash is retried after the restart and appended again under a new
     * timestamp, rejected at that dnWrite; the real data node is accepted on the same run.
     */
    @Test
    void aDataNodeForgettingItsRequestsAtRestartIsRejected() throws Exception {
        java.util.function.Consumer<Rack> crash = rack -> rack.crashHost(2_000_000, 2_300_000, rack.servers().get(1));
        Validated real = validate(p -> p, 5, crash, "dn-crash-seed5");
        assertEquals(TraceValidator.Verdict.ACCEPTED, real.result().verdict(), real.result().summary());
        Validated v = validate(p -> p.withDataNodes(SeededBugs.ForgetsRequestsOnRestartDataNode::new), 5, crash,
                "dn-forgets-requests-seed5");
        assertEquals(TraceValidator.Verdict.REJECTED, v.result().verdict(), v.result().summary());
        assertTrue(v.result().failedDescription().startsWith("e=dnWrite"), v.result().summary());
    }

    @Test
    void aResyncThatDoesNotReloadMaxTsIsRejected() throws Exception {
        Validated v = validate(p -> p.withResync(SeededBugs.ResyncWithoutMaxTs::new), 2, true, "resync-no-maxts-seed2");
        assertEquals(TraceValidator.Verdict.REJECTED, v.result().verdict(), v.result().summary());
        assertTrue(v.result().failedDescription().startsWith("e=resync"), v.result().summary());
    }

    @Test
    void aDataNodeThatRestampsRetriedWritesIsRejected() throws Exception {
        Validated v = validate(p -> p.withDataNodes(SeededBugs.RestampDataNode::new), 1, "restamp-seed1");
        assertEquals(TraceValidator.Verdict.REJECTED, v.result().verdict(), v.result().summary());
        assertTrue(v.result().failedDescription().startsWith("e=dnWrite"), v.result().summary());
    }

    @Test
    void malformedEventsGiveAClearError() throws Exception {
        Path bad = Path.of("target", "trace-validation", "visibility-malformed.ndjson");
        Files.createDirectories(bad.getParent());
        Files.writeString(bad, "{\"time\":5,\"host\":0,\"incarnation\":0,\"event\":\"switchUdpIn\",\"src\":3,\"dst\":1,"
                + "\"ipId\":0,\"payload\":\"zz\"}\n");
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> new VisibilityTraceConverter().convert(NdjsonTrace.read(bad)));
        assertTrue(e.getMessage().startsWith("line 1: not a visibility message"), e.getMessage());
        TraceValidator.Result r = new TraceValidator(new VisibilityTraceConversion(), SPECS,
                bad.resolveSibling("visibility-malformed-tlc"), Duration.ofSeconds(10), TraceSettings.rack(null)).validate(bad);
        assertEquals(TraceValidator.Verdict.UNKNOWN, r.verdict(), r.summary());
    }
}
