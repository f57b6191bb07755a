package dev.innet.distcache;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import org.junit.jupiter.api.Test;

/** DistCache on its leaf-spine network of p4sim switches, clean links. */
class DistCacheRackTest {
    @Test
    void twoLayersServeReadsAndStayLinearizable() throws Exception {
        Rack rack = Rack.builder(RackRuns.root(), 2).protocol(new DistCacheProtocol()).servers(4).clients(4)
                .hotThreshold(4).build();
        rack.run();
        System.out.println("controller " + rack.controllerCounters());
        for (int s : rack.servers()) {
            System.out.println("server " + s + " " + ((dev.innet.protocol.NodeCounters) rack.server(s)).counters());
        }
        System.out.println("hits " + rack.stats().cacheHits);
        assertTrue(rack.controllerCounters().getOrDefault("insertions", 0L) > 0, "no insertions: " + rack.controllerCounters());
        assertTrue(rack.stats().cacheHits > 0, "no cache hits");
        RackRuns.assertSafe(rack, "distcache-clean");
    }
}
