package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.HostPorts;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.ProtocolRegistry;
import dev.innet.protocol.RackPorts;
import dev.innet.rack.Rack;
import dev.innet.rack.SwitchTraffic;
import dev.innet.wire.RackAddressing;
import java.nio.charset.StandardCharsets;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every registered protocol's port layout ({@link Protocol#hostPorts}) covers what its nodes really do,
 * checked on a simulated rack of the protocol (with a switch crash, so recovery's messages are in it too)
 * by watching every frame at the switch: each host's frames leave from ports its role binds live, every
 * frame the switch sends a host is to a port that role binds (a live kernel drops the others), and no
 * host addresses a frame to itself (a live kernel loops those back; Pegasus's packet-outs did). The layout
 * is also listed in docs/live-rack.md.
 */
class ProtocolPortsTest {
    private static Path root() {
        return Path.of(System.getProperty("innet.root")).toAbsolutePath().normalize();
    }

    @Test
    void everyProtocolsNodesUseOnlyTheirRolesPorts() {
        List<String> problems = new ArrayList<>();
        for (Protocol p : ProtocolRegistry.all()) {
            SwitchTraffic traffic = new SwitchTraffic();
            Rack rack = Rack.builder(root(), 3).protocol(p).servers(3).clients(2).switchTraffic(traffic)
                    .chaosNanos(30_000_000).quietNanos(20_000_000).out(new PrintStream(OutputStream.nullOutputStream())).build();
            rack.crashSwitch(10_000_000, 11_000_000);
            rack.run();
            HostPorts ports = p.hostPorts();
            for (int s : rack.servers()) {
                check(p, "server", s, ports.of(HostPorts.Role.SERVER), traffic, problems);
            }
            for (int c : rack.clients()) {
                check(p, "client", c, ports.of(HostPorts.Role.CLIENT), traffic, problems);
            }
            check(p, "controller", RackPorts.CONTROLLER_HOST, ports.of(HostPorts.Role.CONTROLLER), traffic, problems);
            // the check must have seen traffic both ways, or it proves nothing
            assertFalse(traffic.udpSourcePortsSentBy(RackPorts.portOf(rack.clients().get(0))).isEmpty(),
                    p.name() + ": the first client sent nothing");
            assertFalse(traffic.udpDestinationPortsReceivedBy(RackPorts.portOf(rack.servers().get(0))).isEmpty(),
                    p.name() + ": the first server received nothing");
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    private static void check(Protocol p, String role, int host, List<Integer> bound, SwitchTraffic traffic,
            List<String> problems) {
        int port = RackPorts.portOf(host);
        for (int from : traffic.udpSourcePortsSentBy(port)) {
            if (!bound.contains(from)) {
                problems.add(p.name() + ": " + role + " h" + host + " sent from UDP " + from + ", not in its ports " + bound);
            }
        }
        for (int to : traffic.udpDestinationPortsReceivedBy(port)) {
            if (!bound.contains(to)) {
                problems.add(p.name() + ": the switch sent " + role + " h" + host + " a frame to UDP " + to
                        + ", not in its ports " + bound);
            }
        }
        Set<Integer> addressed = traffic.destinationAddressesSentBy(port);
        if (addressed.contains(RackAddressing.hostIp(host))) {
            problems.add(p.name() + ": " + role + " h" + host + " sent a frame to its own address");
        }
    }

    @Test
    void everyProtocolsPortsAreDocumented() throws Exception {
        String doc = Files.readString(root().resolve("docs/live-rack.md"), StandardCharsets.UTF_8);
        for (Protocol p : ProtocolRegistry.all()) {
            String row = "| `" + p.name() + "` | `" + p.hostPorts().describe() + "` |";
            assertTrue(doc.contains(row), "docs/live-rack.md has no row " + row);
        }
    }
}
