package dev.innet.distcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.distcache.controller.DistCacheController;
import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The agents re-fill a cached copy that stays invalid (CacheRefetch): with lossy links a phase-2 update is
 * sometimes lost (it is sent once) and an insertion's fill is sometimes refused by the version guard, and
 * such a copy would miss every read for as long as it stays cached (DistCacheLive.tla's CopiesRevalidate,
 * refuted by MCDistCacheLive_NoRefetch). After a run and a quiet period, every copy the controller holds
 * must answer reads again; without the re-fill some do not.
 */
class DistCacheRefetchTest {
    private static final long[] SEEDS = {1, 2, 3, 4, 5};

    @Test
    void afterAQuietPeriodEveryCachedCopyIsValidAgain() {
        int invalidWith = 0;
        long refetches = 0;
        int invalidWithout = 0;
        for (long seed : SEEDS) {
            Rack with = run(new DistCacheProtocol(), seed);
            invalidWith += invalidCopies(with).size();
            refetches += with.controllerCounters().getOrDefault("refetches", 0L);
            invalidWithout += invalidCopies(run(new DistCacheProtocol().withoutRefetch(), seed)).size();
        }
        System.out.printf("invalid copies after the quiet period: %d with the re-fill (%d re-fills), %d without%n",
                invalidWith, refetches, invalidWithout);
        assertEquals(0, invalidWith, "every copy valid again with the agents' re-fill");
        assertTrue(refetches > 0, "the runs needed no re-fill: the test shows nothing");
        assertTrue(invalidWithout > 0, "without the re-fill some copy stays invalid (the gap the spec names)");
    }

    private static Rack run(DistCacheProtocol protocol, long seed) {
        // a fifth of the frames on the servers' links lost: phase-2 updates and fills go missing often
        Rack rack = CampaignSettings.ci().withRack(4, 4, 8).withChaosNanos(8_000_000)
                .withFaults(dev.innet.sim.simulated.LinkFaults.CLEAN.withDrop(0.2))
                .rack(RackRuns.root(), protocol, seed).quietNanos(6_000_000).out(RackRuns.QUIET).build();
        rack.run();
        return rack;
    }

    /** Copies the controller holds whose record_valid is 0 (node/key). */
    private static List<String> invalidCopies(Rack rack) {
        DistCacheController ctl = (DistCacheController) rack.controller();
        List<String> invalid = new ArrayList<>();
        DistCacheNetwork network = new DistCacheProtocol().network();
        for (Map.Entry<Integer, Map<String, Integer>> node : ctl.cachedCopies().entrySet()) {
            String name = network.cacheNodes().get(node.getKey());
            for (Map.Entry<String, Integer> copy : node.getValue().entrySet()) {
                if (rack.switchHandle(name).control().registerRead("MyIngress.record_valid", copy.getValue()).signum() == 0) {
                    invalid.add(name + "/" + copy.getKey());
                }
            }
        }
        return invalid;
    }
}
