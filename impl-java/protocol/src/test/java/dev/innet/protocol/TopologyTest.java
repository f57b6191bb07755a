package dev.innet.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Multi-switch topologies: validation of the cabling and the shortest-path ports controllers program. */
class TopologyTest {
    /** Two spines s1, s2; leaves a (host 1 on port 1) and b (host 2 on port 2); a on ports 11/12, b on 21/22. */
    static Topology leafSpine() {
        return new Topology(List.of("s1", "s2", "a", "b"),
                Map.of(1, new Topology.Attachment("a", 1), 2, new Topology.Attachment("b", 2)),
                List.of(new Topology.Cable("a", 11, "s1", 1), new Topology.Cable("a", 12, "s2", 1),
                        new Topology.Cable("b", 21, "s1", 2), new Topology.Cable("b", 22, "s2", 2)));
    }

    @Test
    void portsFollowShortestPathsAndAvoidFailedSwitches() {
        Topology t = leafSpine();
        assertEquals(1, t.portTowardHost("a", 1, Set.of()), "a host on this switch: its own port");
        assertEquals(21, t.portTowardHost("b", 1, Set.of()), "two equal paths: the lowest port");
        assertEquals(22, t.portTowardHost("b", 1, Set.of("s1")), "around the failed spine");
        assertEquals(-1, t.portTowardHost("b", 1, Set.of("s1", "s2")), "no path left");
        assertEquals(2, t.portTowardSwitch("s1", "b", Set.of()));
        assertEquals(11, t.portTowardSwitch("a", "s1", Set.of()));
        assertEquals(12, t.portTowardSwitch("a", "s2", Set.of()));
        assertEquals(-1, t.portTowardSwitch("a", "a", Set.of()), "a switch has no port toward itself");
        assertEquals(List.of(1), t.hostsOn("a"));
        assertEquals("b", t.switchOf(2));
    }

    @Test
    void aSingleSwitchRackCablesEveryHostToItsPort() {
        RackSpec rack = new RackSpec(List.of(1, 2), List.of(3), 254, 8, 0, 1, 1, List.of(), 1, false);
        Topology t = Topology.singleSwitch(rack);
        assertEquals(List.of("tor"), t.switches());
        assertEquals(64, t.hosts().get(254).port());
        assertEquals(3, t.portTowardHost("tor", 3, Set.of()));
    }

    @Test
    void badCablingIsRefusedWithItsReason() {
        var twice = assertThrows(IllegalArgumentException.class, () -> new Topology(List.of("x", "y"),
                Map.of(1, new Topology.Attachment("x", 5)), List.of(new Topology.Cable("x", 5, "y", 1))));
        assertTrue(twice.getMessage().contains("port 5 of x is already cabled"), twice.getMessage());
        var unknown = assertThrows(IllegalArgumentException.class, () -> new Topology(List.of("x"),
                Map.of(1, new Topology.Attachment("z", 1)), List.of()));
        assertTrue(unknown.getMessage().contains("unknown switch z"), unknown.getMessage());
        var loop = assertThrows(IllegalArgumentException.class, () -> new Topology(List.of("x"), Map.of(),
                List.of(new Topology.Cable("x", 1, "x", 2))));
        assertTrue(loop.getMessage().contains("two different switches"), loop.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Topology(List.of("x"),
                Map.of(1, new Topology.Attachment("x", 600)), List.of()));
        assertThrows(IllegalArgumentException.class, () -> leafSpine().switchOf(9));
    }
}
