package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.ProtocolRegistry;
import dev.innet.protocol.Topology;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How a live rack names the switches of its protocol's topology, their ports, processes and cables. */
class RackSwitchesTest {
    private static final RackLayout LAYOUT = RackLayout.of("t", Path.of("/tmp/none"), 4, 2);

    @Test
    void aOneSwitchRackKeepsItsNames() {
        RackSwitches s = RackSwitches.of(ProtocolRegistry.byName("farreach"), LAYOUT);
        assertFalse(s.several());
        assertEquals(List.of("switch"), s.processes());
        assertEquals("p1", s.interfaceOfHost(1));
        assertEquals("p64", s.interfaceOfHost(254), "the controller on the CPU port");
        assertEquals(RackLayout.SWITCH_CONTROL_PORT, s.controlPortOf("tor"));
        assertEquals(List.of(), s.cableInterfaces());
        assertEquals("switch:9090", s.describe());
        for (int h : LAYOUT.allHosts()) {
            assertEquals(LAYOUT.switchInterfaceOf(h), s.interfaceOfHost(h), "the names rack up always used, host " + h);
        }
    }

    @Test
    void distcacheRunsOneSwitchPerNodeOfItsLeafSpineNetwork() {
        RackSwitches s = RackSwitches.of(ProtocolRegistry.byName("distcache"), LAYOUT);
        assertTrue(s.several());
        assertEquals(List.of("switch-spine1", "switch-spine2", "switch-leaf1", "switch-leaf2", "switch-ctor"), s.processes());
        assertEquals("switch-spine1:9090,switch-spine2:9091,switch-leaf1:9092,switch-leaf2:9093,switch-ctor:9094", s.describe());
        // servers spread over the storage racks, clients and the controller under the client ToR
        assertEquals("s3p1", s.interfaceOfHost(1));
        assertEquals("s4p2", s.interfaceOfHost(2));
        assertEquals("s5p5", s.interfaceOfHost(5));
        assertEquals("s5p64", s.interfaceOfHost(254));
        assertEquals(Optional.of("leaf2"), s.switchOfProcess("switch-leaf2"));
        assertEquals(Optional.empty(), s.switchOfProcess("switch"));
        assertEquals(Optional.empty(), s.switchOfProcess("server-h1"));
        // 2 spines x (2 leaves + the client ToR) cables; every interface name unique and within IFNAMSIZ
        assertEquals(6, s.cableInterfaces().size());
        Set<String> names = new HashSet<>();
        for (String sw : s.names()) {
            names.addAll(s.portsOf(sw).values());
        }
        List<String> cableEnds = new ArrayList<>();
        for (String[] c : s.cableInterfaces()) {
            cableEnds.addAll(List.of(c));
        }
        assertTrue(names.containsAll(cableEnds), "each cable end is a port some switch opens");
        int hostLinks = LAYOUT.allHosts().size();
        assertEquals(hostLinks + 12, names.size(), "one interface per host link and two per cable, none shared");
        assertTrue(names.stream().allMatch(n -> n.length() <= 15), names.toString());
        assertEquals(Map.of(1, "s3p1", 3, "s3p3", 151, "s3p151", 152, "s3p152"), s.portsOf("leaf1"));
    }

    @Test
    void tooManySwitchesAreRefused() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            many.add("s" + i);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RackSwitches(new Topology(many, Map.of(1, new Topology.Attachment("s0", 1)), List.of())));
        assertTrue(e.getMessage().contains("at most 9 switches"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RackSwitches.of(ProtocolRegistry.byName("distcache"), LAYOUT)
                .controlPortOf("nosuch"));
    }

    /** A topology with hosts of its own (Pegasus across racks: each rack's controller) cannot be laid out live. */
    @Test
    void aNetworkWithHostsOfItsOwnIsRefusedNamingTheHost() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RackSwitches.of(ProtocolRegistry.byName("pegasus-chain"), LAYOUT));
        assertTrue(e.getMessage().contains("pegasus-chain") && e.getMessage().contains("host 201")
                && e.getMessage().contains("./innet sim --program pegasus-chain"), e.getMessage());
    }
}
