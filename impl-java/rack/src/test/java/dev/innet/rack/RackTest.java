package dev.innet.rack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Each switch program runs a small rack end to end on p4sim with clean links. */
class RackTest {

    private static Rack run(CacheProgram program, long seed) {
        Rack rack = Rack.builder(RackRuns.root(), seed).program(program).out(RackRuns.QUIET).build();
        rack.run();
        return rack;
    }

    @Test
    void farreachServesHotKeysFromTheSwitchAndStaysLinearizable() throws Exception {
        Rack rack = run(CacheProgram.FARREACH, 1);
        assertTrue(rack.controller().stats().admissions > 0, "no admissions: " + rack.controller().stats());
        assertTrue(rack.stats().cacheHits > 0, "no cache hits");
        RackRuns.assertSafe(rack, "farreach-clean");
    }

    @Test
    void netcacheServesReadsFromTheSwitchAndStaysLinearizable() throws Exception {
        Rack rack = run(CacheProgram.NETCACHE, 2);
        assertTrue(rack.controller().stats().admissions > 0, "no admissions: " + rack.controller().stats());
        assertTrue(rack.stats().cacheHits > 0, "no cache hits");
        RackRuns.assertSafe(rack, "netcache-clean");
    }

    @Test
    void aRackRunReplaysBitForBitFromItsSeed() {
        // The whole rack - p4sim, controller steps, servers, clients, faults - is driven by the seed.
        java.util.function.LongFunction<String> hashOf = seed -> {
            Rack rack = CampaignSettings.ci().withChaosNanos(5_000_000).rack(RackRuns.root(), CacheProgram.FARREACH, seed)
                    .out(RackRuns.QUIET).build();
            rack.run();
            return rack.simulation().eventLogHash() + " " + rack.history().toJsonLines().hashCode();
        };
        assertEquals(hashOf.apply(11), hashOf.apply(11), "same seed, different run");
        assertTrue(!hashOf.apply(11).equals(hashOf.apply(12)), "different seeds gave the same run");
    }

    @Test
    void nocacheNeverAnswersFromTheSwitch() throws Exception {
        Rack rack = run(CacheProgram.NOCACHE, 3);
        assertEquals(0, rack.stats().cacheHits);
        RackRuns.assertSafe(rack, "nocache-clean");
    }
}
