package dev.innet.farreach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import org.junit.jupiter.api.Test;

/** A FarReach rack end to end on p4sim with clean links, and its replay from a seed. */
class FarReachRackTest {

    @Test
    void farreachServesHotKeysFromTheSwitchAndStaysLinearizable() throws Exception {
        Rack rack = Rack.builder(RackRuns.root(), 1).protocol(new FarReachProtocol()).out(RackRuns.QUIET).build();
        rack.run();
        assertTrue(rack.controllerCounters().get("admissions") > 0, "no admissions: " + rack.controllerCounters());
        assertTrue(rack.stats().cacheHits > 0, "no cache hits");
        RackRuns.assertSafe(rack, "farreach-clean");
    }

    @Test
    void aRackRunReplaysBitForBitFromItsSeed() {
        // The whole rack - p4sim, controller steps, servers, clients, faults - is driven by the seed.
        java.util.function.LongFunction<String> hashOf = seed -> {
            Rack rack = CampaignSettings.ci().withChaosNanos(5_000_000).rack(RackRuns.root(), new FarReachProtocol(), seed)
                    .out(RackRuns.QUIET).build();
            rack.run();
            return rack.simulation().eventLogHash() + " " + rack.history().toJsonLines().hashCode();
        };
        assertEquals(hashOf.apply(11), hashOf.apply(11), "same seed, different run");
        assertTrue(!hashOf.apply(11).equals(hashOf.apply(12)), "different seeds gave the same run");
    }
}
