package dev.innet.visibility;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.sim.simulated.LinkFaults;
import dev.innet.visibility.wire.KeyHasher;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * CI-sized campaigns: lossy, duplicating, reordering links between the switch and the servers, with
 * colliding keys (so fallbacks, held replies and failed validations are common), and the failures of
 * §III-E: a metadata node crash (rebuilt from the data nodes' logs), a data node crash (its log is
 * durable), a switch crash (resynchronised, MaxTs reloaded). Each must stay linearizable and lose no
 * acknowledged write.
 */
public class VisibilityCampaignTest {
    /** The keys of ./innet sim's campaigns too: 8 slots under 4 fingerprints. */
    static final KeyHasher COLLIDING = VisibilityProtocol.CAMPAIGN_HASHER;

    /**
     * Harsher than the CI campaign's links: 20% duplicates and 30% of packets held back 300 us, so
     * replies overtake each other by more than half a timeout (late replies, duplicated requests).
     */
    public static final LinkFaults REORDERING = LinkFaults.fixedDelay(2_000).withDrop(0.05).withDuplicate(0.2)
            .withDelay(1_000, 30_000).withReorder(0.3, 300_000);

    static Rack.Builder campaign(VisibilityProtocol protocol, long seed) {
        return CampaignSettings.ci().withRack(3, 4, 8).rack(RackRuns.root(), protocol, seed).out(RackRuns.QUIET);
    }

    static long mdn(Rack rack, String counter) {
        return rack.serverCounter(rack.servers().get(0), counter);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void lossyLinksStayLinearizable(long seed) throws Exception {
        Rack rack = campaign(new VisibilityProtocol().withHasher(COLLIDING), seed).build();
        rack.run();
        assertTrue(rack.stats().cacheHits > 0, "nothing accelerated");
        assertTrue(mdn(rack, "secondPhases") > 0, "no fallback");
        RackRuns.assertSafe(rack, "visibility-campaign-" + seed);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2})
    void aMetadataNodeCrashIsRebuiltFromTheDataNodes(long seed) throws Exception {
        Rack rack = campaign(new VisibilityProtocol().withHasher(COLLIDING), seed).build();
        rack.crashHost(10_000_000, 11_000_000, rack.servers().get(0));
        rack.run();
        assertTrue(mdn(rack, "rebuilds") >= 1 && mdn(rack, "indexedKeys") > 0, "the restarted metadata node did not rebuild");
        RackRuns.assertSafe(rack, "visibility-mdn-crash-" + seed);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2})
    void aDataNodeCrashLosesNoAcknowledgedWrite(long seed) throws Exception {
        Rack rack = campaign(new VisibilityProtocol().withHasher(COLLIDING), seed).build();
        rack.crashHost(10_000_000, 11_000_000, rack.servers().get(1));
        rack.run();
        RackRuns.assertSafe(rack, "visibility-dn-crash-" + seed);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2})
    void aSwitchCrashIsResynchronised(long seed) throws Exception {
        Rack rack = campaign(new VisibilityProtocol().withHasher(COLLIDING), seed).build();
        rack.crashSwitch(10_000_000, 10_300_000);
        rack.run();
        assertTrue(rack.controllerCounters().getOrDefault("resyncs", 0L) >= 2, "no resync after the restart: "
                + rack.controllerCounters());
        RackRuns.assertSafe(rack, "visibility-switch-crash-" + seed);
    }

    /** The links of the seeded-bug campaigns, with three switch crashes: the real protocol passes them. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1})
    void heavyReorderingAndSwitchCrashesStayLinearizable(long seed) throws Exception {
        Rack rack = reordering(new VisibilityProtocol().withHasher(COLLIDING), seed).build();
        crashSwitchRepeatedly(rack);
        rack.run();
        RackRuns.assertSafe(rack, "visibility-reordering-" + seed);
    }

    static Rack.Builder reordering(VisibilityProtocol protocol, long seed) {
        return CampaignSettings.ci().withRack(3, 4, 8).withFaults(REORDERING).rack(RackRuns.root(), protocol, seed)
                .out(RackRuns.QUIET);
    }

    static void crashSwitchRepeatedly(Rack rack) {
        for (long t = 6_000_000; t < 30_000_000; t += 8_000_000) {
            rack.crashSwitch(t, t + 200_000);
        }
    }
}
