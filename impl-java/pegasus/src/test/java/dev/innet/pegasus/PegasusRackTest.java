package dev.innet.pegasus;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import org.junit.jupiter.api.Test;

/** A Pegasus rack on p4sim with clean links: hot keys get replicated, and the history is linearizable. */
class PegasusRackTest {
    @Test
    void pegasusReplicatesHotKeysAndStaysLinearizable() throws Exception {
        Rack rack = Rack.builder(RackRuns.root(), 1).protocol(new PegasusProtocol()).servers(3).out(System.out).build();
        rack.run();
        System.out.println(rack.controllerCounters());
        for (int s : rack.servers()) {
            System.out.println("server " + s + " " + ((dev.innet.protocol.NodeCounters) rack.server(s)).counters());
        }
        assertTrue(rack.controllerCounters().get("admissions") > 0, "no key replicated: " + rack.controllerCounters());
        RackRuns.assertSafe(rack, "pegasus-clean");
    }
}
