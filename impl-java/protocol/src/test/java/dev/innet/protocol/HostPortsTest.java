package dev.innet.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostPortsTest {
    @Test
    void eachRoleHasItsOwnPorts() {
        HostPorts p = new HostPorts(List.of(5010), List.of(5010, 40254), List.of(40010));
        assertEquals(List.of(5010), p.of(HostPorts.Role.SERVER));
        assertEquals(List.of(5010, 40254), p.of(HostPorts.Role.CONTROLLER));
        assertEquals(List.of(40010), p.of(HostPorts.Role.CLIENT));
        assertEquals("server=5010 controller=5010,40254 client=40010", p.describe());
    }

    @Test
    void theKeyValueFamilysLayoutIsTheDefault() {
        Protocol bare = new Protocol() {
            public String name() {
                return "bare";
            }

            public String summary() {
                return "";
            }

            public String p4Program() {
                return "";
            }

            public boolean servesFromSwitch() {
                return false;
            }

            public RackNodes nodes(RackSpec rack, dev.innet.switchapi.SwitchHandle handle) {
                throw new UnsupportedOperationException();
            }
        };
        assertEquals(HostPorts.KEY_VALUE_FAMILY, bare.hostPorts());
        assertEquals("server=5008,5009 controller=5009 client=40000,5009", HostPorts.KEY_VALUE_FAMILY.describe());
    }

    @Test
    void rolesAreNamedAsTheLiveRackNamesThem() {
        assertEquals(HostPorts.Role.SERVER, HostPorts.Role.named("server"));
        assertEquals(HostPorts.Role.CONTROLLER, HostPorts.Role.named("controller"));
        assertEquals(HostPorts.Role.CLIENT, HostPorts.Role.named("client"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HostPorts.Role.named("switch"));
        assertTrue(e.getMessage().contains("'switch'"), e.getMessage());
    }

    @Test
    void badLayoutsAreRefusedNamingTheRoleAndPort() {
        assertMessage("a client listens on at least one port", () -> new HostPorts(List.of(1), List.of(1), List.of()));
        assertMessage("server port 0 is not a UDP port", () -> new HostPorts(List.of(0), List.of(1), List.of(2)));
        assertMessage("controller port 70000 is not a UDP port", () -> new HostPorts(List.of(1), List.of(70000), List.of(2)));
        assertMessage("client port 7 is listed twice", () -> new HostPorts(List.of(1), List.of(1), List.of(7, 7)));
    }

    @Test
    void theLayoutCannotBeChangedAfterwards() {
        List<Integer> ports = new ArrayList<>(List.of(5010));
        HostPorts p = new HostPorts(ports, ports, List.of(40010));
        ports.add(9);
        assertEquals(List.of(5010), p.server());
        assertThrows(UnsupportedOperationException.class, () -> p.client().add(1));
    }

    private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable e) {
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, e);
        assertTrue(thrown.getMessage().contains(expected), thrown.getMessage());
    }
}
