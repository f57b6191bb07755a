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
    void nocacheNeverAnswersFromTheSwitch() throws Exception {
        Rack rack = run(CacheProgram.NOCACHE, 3);
        assertEquals(0, rack.stats().cacheHits);
        RackRuns.assertSafe(rack, "nocache-clean");
    }
}
