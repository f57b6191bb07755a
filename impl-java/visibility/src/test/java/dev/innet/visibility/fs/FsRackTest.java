package dev.innet.visibility.fs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.NodeCounters;
import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpKind;
import dev.innet.sim.history.OpResult;
import dev.innet.visibility.wire.KeyHasher;
import java.util.List;
import dev.innet.visibility.VisibilityCampaignTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The file-system namespace on the visibility layer: racks on p4sim whose file histories porcupine's file
 * model checks (create fails once the path exists, write needs the file, stat shows the last create or
 * write). Clean links, then the CI campaign's faulty server links with paths that share switch slots.
 */
class FsRackTest {
    static final KeyHasher COLLIDING = KeyHasher.colliding(4, 1);

    static long mdn(Rack rack, String counter) {
        return rack.serverCounter(rack.servers().get(0), counter);
    }

    static long dataNodes(Rack rack, String counter) {
        return rack.servers().stream().skip(1).mapToLong(h -> rack.serverCounter(h, counter)).sum();
    }

    static long count(Rack rack, OpKind kind, OpResult result) {
        return rack.history().operations().stream().filter(o -> o.kind() == kind && o.result() == result).count();
    }

    /** Every outcome the model distinguishes happened, or the check proves little. */
    static void assertEveryOutcome(Rack rack) {
        List<HistoryRecorder.Operation> ops = rack.history().operations();
        String summary = "creates ok " + count(rack, OpKind.CREATE, OpResult.OK) + ", exists " + count(rack, OpKind.CREATE, OpResult.EXISTS)
                + "; writes ok " + count(rack, OpKind.WRITE, OpResult.OK) + ", not_found " + count(rack, OpKind.WRITE, OpResult.NOT_FOUND)
                + "; stats ok " + count(rack, OpKind.STAT, OpResult.OK) + ", not_found " + count(rack, OpKind.STAT, OpResult.NOT_FOUND)
                + " of " + ops.size();
        System.out.println("visibility-fs: " + summary + "; switch-answered " + rack.stats().cacheHits);
        for (OpKind k : List.of(OpKind.CREATE, OpKind.WRITE, OpKind.STAT)) {
            assertTrue(count(rack, k, OpResult.OK) > 0, "no " + k + " succeeded: " + summary);
        }
        assertTrue(count(rack, OpKind.CREATE, OpResult.EXISTS) > 0 && count(rack, OpKind.WRITE, OpResult.NOT_FOUND) > 0
                && count(rack, OpKind.STAT, OpResult.NOT_FOUND) > 0, "an outcome never happened: " + summary);
    }

    @Test
    void cleanRunIsLinearizableAndUsesTheSwitch() throws Exception {
        Rack rack = Rack.builder(RackRuns.root(), 1).protocol(new VisibilityFsProtocol()).servers(3)
                .chaosNanos(10_000_000).quietNanos(10_000_000).out(RackRuns.QUIET).build();
        rack.run();
        System.out.println("clean: mdn " + ((NodeCounters) rack.server(rack.servers().get(0))).counters());
        assertEveryOutcome(rack);
        assertTrue(rack.stats().cacheHits > 0, "no create, write or stat was committed or answered by the switch");
        assertTrue(mdn(rack, "asyncUpdates") > 0 && mdn(rack, "clears") > 0, "no asynchronous inode update");
        assertTrue(dataNodes(rack, "existingAnswers") > 0 && dataNodes(rack, "absentAnswers") > 0,
                "the data nodes never answered a create of an existing path or a write of an absent one");
        RackRuns.assertSafe(rack, "visibility-fs-clean");
    }

    static Rack.Builder campaign(VisibilityFsProtocol protocol, long seed) {
        return CampaignSettings.ci().withRack(3, 4, 8).rack(RackRuns.root(), protocol, seed).out(RackRuns.QUIET);
    }

    static VisibilityFsProtocol colliding() {
        return new VisibilityFsProtocol().withLayer(l -> l.withHasher(COLLIDING));
    }

    @Test
    void lossyReorderingLinksWithCollidingPathsStayLinearizable() throws Exception {
        Rack rack = campaign(colliding(), 1).build();
        rack.run();
        assertEveryOutcome(rack);
        assertTrue(mdn(rack, "secondPhases") > 0, "nothing fell back to the ordered second phase");
        RackRuns.assertSafe(rack, "visibility-fs-campaign-1");
    }

    /**
     * §III-E's crashes: the metadata node (its inodes rebuilt from the data nodes' logs, tails and all) and
     * then the switch (resynchronised), under the same links.
     */
    @Test
    void metadataNodeAndSwitchCrashesStayLinearizable() throws Exception {
        Rack rack = campaign(colliding(), 2).build();
        rack.crashHost(8_000_000, 9_000_000, rack.servers().get(0));
        rack.crashSwitch(18_000_000, 18_300_000);
        rack.run();
        assertTrue(mdn(rack, "rebuilds") >= 1 && mdn(rack, "indexedKeys") > 0, "the restarted metadata node rebuilt nothing");
        assertTrue(rack.controllerCounters().getOrDefault("resyncs", 0L) >= 2, "no resync after the switch restart");
        RackRuns.assertSafe(rack, "visibility-fs-crashes-2");
    }

    /**
     * The visibility campaigns' harsher links: 20% duplicates, 30% of packets held back 300 us (late replies).
     * One seed (3-5 s: held replies multiply); seeds 2 and 3 passed as well when run by hand.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1})
    void heavyReorderingStaysLinearizable(long seed) throws Exception {
        Rack rack = CampaignSettings.ci().withRack(3, 4, 8).withFaults(VisibilityCampaignTest.REORDERING)
                .rack(RackRuns.root(), colliding(), seed).out(RackRuns.QUIET).build();
        rack.run();
        RackRuns.assertSafe(rack, "visibility-fs-reordering-" + seed);
    }
}
