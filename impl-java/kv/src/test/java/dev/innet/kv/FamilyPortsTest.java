package dev.innet.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.HostPorts;
import dev.innet.protocol.RackSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The key-value family's declared ports (HostPorts.KEY_VALUE_FAMILY) are the ones its nodes use. */
class FamilyPortsTest {
    @Test
    void theDeclaredLayoutIsTheFamilysOwn() {
        HostPorts p = HostPorts.KEY_VALUE_FAMILY;
        assertEquals(List.of(KvOp.KV_PORT, KvOp.CONTROL_PORT), p.server());
        assertEquals(List.of(KvOp.CONTROL_PORT), p.controller());
        RackSpec rack = new RackSpec(List.of(1, 2), List.of(3), 254, 16, 0, 1_000_000, 1_000, List.of(), 500_000, false);
        int clientSource = FamilyRack.of(rack).clients().sourcePort();
        assertEquals(clientSource, p.client().get(0), "the client library's source port comes first");
        assertTrue(p.client().contains(KvOp.CONTROL_PORT), "FarReach's recovery asks clients on the control port");
    }
}
