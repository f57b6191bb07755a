package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class RackLayoutTest {
    private final RackLayout layout = RackLayout.of("r1", Path.of("/state"), 2, 3);

    @Test
    void hostsAreNumberedAsInTheSimulatedRack() {
        assertEquals(List.of(1, 2), layout.servers());
        assertEquals(List.of(3, 4, 5), layout.clients());
        assertEquals(List.of(1, 2, 3, 4, 5, 254), layout.allHosts());
        assertEquals("client", layout.roleOf(4));
        assertEquals("controller", layout.roleOf(254));
    }

    @Test
    void theControllerSharesTheSwitchNamespaceOnTheCpuPort() {
        assertEquals("innet-r1-sw", layout.namespaceOf(254));
        assertEquals("p64", layout.switchInterfaceOf(254));
        assertEquals("ctl0", layout.hostInterfaceOf(254));
        assertEquals("innet-r1-h3", layout.namespaceOf(3));
        assertEquals("p3", layout.switchInterfaceOf(3));
        assertEquals("eth0", layout.hostInterfaceOf(3));
    }

    @Test
    void addressesFollowTheRackPlan() {
        assertEquals("02:00:00:00:00:fe", RackLayout.mac(254));
        assertEquals("02:00:00:00:00:03", RackLayout.mac(3));
        assertEquals("10.0.0.3", RackLayout.ip(3));
    }

    @Test
    void badNamesAndSizesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> RackLayout.of("Rack", Path.of("/s"), 1, 1));
        assertThrows(IllegalArgumentException.class, () -> RackLayout.of("a-b", Path.of("/s"), 1, 1));
        assertThrows(IllegalArgumentException.class, () -> RackLayout.of("r", Path.of("/s"), 0, 1));
        assertThrows(IllegalArgumentException.class, () -> RackLayout.of("r", Path.of("/s"), 40, 21));
        assertThrows(IllegalArgumentException.class, () -> layout.roleOf(9));
    }
}
