package dev.innet.distcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.NodeCounters;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** DistCache on its leaf-spine network of p4sim switches (2 spines, 2 storage racks, a client rack), clean links. */
class DistCacheRackTest {
    @Test
    void twoLayersServeReadsAndStayLinearizable() throws Exception {
        Rack rack = Rack.builder(RackRuns.root(), 2).protocol(new DistCacheProtocol()).servers(4).clients(4)
                .hotThreshold(4).out(RackRuns.QUIET).build();
        assertEquals(5, rack.topology().switches().size());
        rack.run();
        var ctl = rack.controllerCounters();
        assertTrue(ctl.getOrDefault("insertions", 0L) > 0, "no insertions: " + ctl);
        assertTrue(rack.stats().cacheHits > 0, "no cache hits");
        long writes = 0;
        long acks = 0;
        for (int s : rack.servers()) {
            NodeCounters c = (NodeCounters) rack.server(s);
            writes += c.counter("writes");
            acks += c.counter("invalidationAcks");
        }
        assertEquals(2 * writes, acks, "clean links: every write's phase 1 ends with one acknowledgement per layer");
        // both layers served: reads hit copies in a spine and in a leaf
        long upperServed = load(rack, "spine1") + load(rack, "spine2");
        long lowerServed = load(rack, "leaf1") + load(rack, "leaf2");
        assertTrue(upperServed > 0 && lowerServed > 0, "reads routed to upper " + upperServed + ", lower " + lowerServed);
        RackRuns.assertSafe(rack, "distcache-clean");
    }

    /** The same seed replays the same run bit for bit (five switches, faults, a spine crash); another seed does not. */
    @Test
    void aSeedReplaysTheWholeNetworkBitForBit() throws Exception {
        String first = shortRun(7);
        assertEquals(first, shortRun(7));
        org.junit.jupiter.api.Assertions.assertNotEquals(first, shortRun(8));
    }

    private static String shortRun(long seed) {
        Rack rack = dev.innet.rack.CampaignSettings.ci().withRack(4, 4, 8).withChaosNanos(6_000_000)
                .rack(RackRuns.root(), new DistCacheProtocol(), seed).quietNanos(4_000_000).out(RackRuns.QUIET).build();
        rack.crashSwitch("spine1", 2_000_000, 3_000_000);
        rack.run();
        assertTrue(rack.simulation().eventCount() > 5_000, "too short to mean anything: " + rack.simulation().eventCount());
        return rack.simulation().eventLogHash();
    }

    /** Fills and updates the copies took, per switch (update_outcome[0]): both layers hold copies. */
    private static long load(Rack rack, String sw) {
        BigInteger taken = rack.switchHandle(sw).control().registerRead("MyIngress.update_outcome", 0);
        return taken.longValue();
    }
}
