package dev.innet.pegasus;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.NodeCounters;
import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.workload.Workload;
import org.junit.jupiter.api.Test;

/** Pegasus racks on p4sim: hot keys get replicated and read from several servers; histories linearizable. */
class PegasusRackTest {
    @Test
    void pegasusReplicatesHotKeysAndStaysLinearizable() throws Exception {
        Rack rack = Rack.builder(RackRuns.root(), 1).protocol(new PegasusProtocol()).servers(3).out(RackRuns.QUIET).build();
        rack.run();
        assertTrue(rack.controllerCounters().get("admissions") > 0, "no key replicated: " + rack.controllerCounters());
        long forwarded = 0;
        for (int s : rack.servers()) {
            forwarded += ((NodeCounters) rack.server(s)).counters().get("forwarded");
        }
        assertTrue(forwarded > 0, "no write was replicated by its detector");
        RackRuns.assertSafe(rack, "pegasus-clean");
    }

    /**
     * Read-only hot keys end with more than one server in their replica set: a replica answers the
     * REPLICATE of a virtual write to the server that sent it (UDP 5010 to 5010), and that reply must still
     * pass Algorithm 2 (P-6). It did not until pegasus.p4 told replies by their op rather than by a
     * non-Pegasus destination port: every rset stayed {home}, found by ./innet bench pegasus.
     */
    @Test
    void virtualWritesGrowReplicaSets() throws Exception {
        Rack rack = Rack.builder(RackRuns.root(), 1).protocol(new PegasusProtocol()).servers(3)
                .workload(new Workload(32, 0.99, 1.0, 0.0, 16, 0)).counterResetNanos(2_000_000).out(RackRuns.QUIET).build();
        rack.run();
        var control = rack.switchHandle("tor").control();
        long largest = 0;
        for (int slot = 0; slot < 16; slot++) {
            largest = Math.max(largest, control.registerRead("MyIngress.rset_size", slot).longValue());
        }
        assertTrue(rack.controllerCounters().get("virtualWrites") > 0, "no virtual write: " + rack.controllerCounters());
        assertTrue(largest >= 2, "every replica set still holds one server after virtual writes");
        RackRuns.assertSafe(rack, "pegasus-virtual-writes-grow");
    }

    /**
     * Read-mostly keys (2% writes): the controller spreads keys nobody wrote in a period with virtual
     * writes (§6.3), and reads then go to more servers; under lossy links the history stays
     * linearizable.
     */
    @Test
    void readMostlyKeysAreSpreadByVirtualWrites() throws Exception {
        Rack rack = CampaignSettings.ci().withRack(3, 4, 8).withWorkload(new Workload(32, 0.99, 0.98, 0.0, 16, 0))
                .rack(RackRuns.root(), new PegasusProtocol(), 1).out(RackRuns.QUIET).build();
        rack.run();
        var c = rack.controllerCounters();
        assertTrue(c.get("virtualWrites") > 0, "no virtual write: " + c);
        long executed = 0;
        for (int s : rack.servers()) {
            executed += ((NodeCounters) rack.server(s)).counters().get("virtualWrites");
        }
        assertTrue(executed > 0, "no server executed a virtual write");
        RackRuns.assertSafe(rack, "pegasus-virtual-writes");
    }
}
