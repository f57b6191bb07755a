package dev.innet.visibility;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.visibility.wire.KeyHasher;
import org.junit.jupiter.api.Test;

/** Visibility racks on p4sim with clean links: the layer accelerates writes and stays linearizable. */
class VisibilityRackTest {
    static long mdn(Rack rack, String counter) {
        return rack.serverCounter(rack.servers().get(0), counter);
    }

    static long dataNodes(Rack rack, String counter) {
        return rack.servers().stream().skip(1).mapToLong(h -> rack.serverCounter(h, counter)).sum();
    }

    @Test
    void writesBecomeVisibleInTheSwitchAndTheRunIsLinearizable() throws Exception {
        Rack rack = Rack.builder(RackRuns.root(), 1).protocol(new VisibilityProtocol()).servers(3)
                .chaosNanos(30_000_000).quietNanos(30_000_000).out(RackRuns.QUIET).build();
        rack.run();
        System.out.println("clean: stats completed=" + rack.stats().completed + " hits=" + rack.stats().cacheHits
                + " mdn=" + ((dev.innet.protocol.NodeCounters) rack.server(rack.servers().get(0))).counters() + " dn=" + ((dev.innet.protocol.NodeCounters) rack.server(rack.servers().get(1))).counters() + " " + rack.controllerCounters());
        assertTrue(rack.stats().cacheHits > 0, "no write or read was served by the switch");
        assertTrue(mdn(rack, "asyncUpdates") > 0 && mdn(rack, "batches") > 0 && mdn(rack, "clears") > 0,
                "no asynchronous update reached the metadata node");
        RackRuns.assertSafe(rack, "visibility-clean");
    }

    @Test
    void collidingKeysFallBackAndFailValidationYetStayLinearizable() throws Exception {
        Rack rack = Rack.builder(RackRuns.root(), 2).protocol(new VisibilityProtocol().withHasher(KeyHasher.colliding(4, 2)))
                .servers(3).chaosNanos(30_000_000).quietNanos(30_000_000).out(RackRuns.QUIET).build();
        rack.run();
        assertTrue(mdn(rack, "secondPhases") > 0, "no write fell back to the ordered path");
        assertTrue(dataNodes(rack, "keyMismatches") > 0, "no read failed key validation");
        RackRuns.assertSafe(rack, "visibility-colliding");
    }
}
