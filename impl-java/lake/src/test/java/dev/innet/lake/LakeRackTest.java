package dev.innet.lake;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.workload.Workload;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * LaKe racks on p4sim: p4/lake.p4 in front of simulated memcached hosts, memcached clients. Values of
 * LaKe's fixed 32 bytes, so hits are possible; histories must be linearizable (porcupine).
 */
class LakeRackTest {
    /** Read-mostly with some deletes, 32-byte values: the size the data plane caches. */
    static final Workload CACHEABLE = new Workload(64, 0.99, 0.7, 0.05, 32, 0);

    @Test
    void cleanRunIsLinearizableAndAnswersFromBothPaths() throws Exception {
        Rack rack = Rack.builder(RackRuns.root(), 3).protocol(new LakeProtocol()).workload(CACHEABLE)
                .out(RackRuns.QUIET).build();
        rack.run();
        assertTrue(rack.stats().cacheHits > 0, "LaKe answered no GET: " + rack.stats().cacheHits);
        assertTrue(rack.stats().completed > rack.stats().cacheHits, "every operation answered by LaKe");
        RackRuns.assertSafe(rack, "lake-clean");
    }

    @Test
    void campaignsRunLakeWithoutDuplication() {
        assertTrue(CampaignSettings.ci().serverLinkFaults().describe().contains("dup=0.0500"));
        assertTrue(CampaignSettings.ci().faultsFor(new LakeProtocol()).describe().contains("dup=0.0000"),
                CampaignSettings.ci().faultsFor(new LakeProtocol()).describe());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void lossyReorderingLinksStayLinearizable(long seed) throws Exception {
        // CampaignSettings drops the CI faults' duplication for LaKe (memcached applies a duplicate twice)
        Rack rack = CampaignSettings.ci().withWorkload(CACHEABLE)
                .rack(RackRuns.root(), new LakeProtocol(), seed).out(RackRuns.QUIET).build();
        rack.run();
        RackRuns.assertSafe(rack, "campaign-lake-" + seed);
    }
}
