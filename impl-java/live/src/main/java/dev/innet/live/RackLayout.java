package dev.innet.live;

import dev.innet.protocol.RackPorts;
import dev.innet.wire.RackAddressing;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where everything of one live rack lives: host numbers (as in the simulator's rack: servers 1..S,
 * clients after them, 64 skipped, the controller 254), the network namespaces and interface names, and
 * the files under the rack's state directory. Pure naming: it creates nothing.
 *
 * <p>The switch's namespace holds p4sim and the controller (a switch OS runs on the switch's CPU), so
 * the controller reaches p4sim's control port on loopback. Each other host has its own namespace whose
 * {@code eth0} is cabled by a veth pair to {@code p<host>} in the switch's namespace, which p4sim opens as
 * port {@code host}; the controller's {@code ctl0} is cabled to {@code p64}, the programs' CPU port.
 */
public record RackLayout(String name, Path stateDir, List<Integer> servers, List<Integer> clients) {
    /** Short, so that namespace names stay readable and socket paths stay under the kernel's 108 bytes. */
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]{0,11}");
    public static final String HOST_INTERFACE = "eth0";
    public static final String CONTROLLER_INTERFACE = "ctl0";
    /** p4sim's control port inside the switch's namespace (loopback there, so racks never collide). */
    public static final int SWITCH_CONTROL_PORT = 9090;
    /** Where the switch serves P4Runtime with rack up --control p4runtime (P4Runtime's IANA port), and its device id. */
    public static final int SWITCH_P4RUNTIME_PORT = 9559;
    public static final long SWITCH_P4RUNTIME_DEVICE_ID = 1;

    public RackLayout {
        servers = List.copyOf(servers);
        clients = List.copyOf(clients);
        requireName(name);
    }

    /** The layout of a rack of {@code servers} servers and {@code clients} clients, numbered as the simulator numbers them. */
    public static RackLayout of(String name, Path stateDir, int servers, int clients) {
        if (servers < 1 || clients < 1 || servers + clients > 60) {
            throw new IllegalArgumentException("a live rack has 1+ servers and 1+ clients, at most 60 hosts, got "
                    + servers + " servers and " + clients + " clients");
        }
        List<Integer> s = new ArrayList<>();
        List<Integer> c = new ArrayList<>();
        int host = 0;
        for (int i = 0; i < servers; i++) {
            s.add(++host);
        }
        for (int i = 0; i < clients; i++) {
            c.add(++host);
        }
        // at most 60 hosts: host numbers stay below 64, the CPU port, so none needs skipping
        return new RackLayout(name, stateDir, s, c);
    }

    public static void requireName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("rack name must be a lower-case letter then up to 11 letters or digits, got '"
                    + name + "'");
        }
    }

    public int controllerHost() {
        return RackPorts.CONTROLLER_HOST;
    }

    /** Servers and clients: the hosts with a namespace of their own. */
    public List<Integer> ownNamespaceHosts() {
        List<Integer> all = new ArrayList<>(servers);
        all.addAll(clients);
        return all;
    }

    /** Every host the switch forwards to. */
    public List<Integer> allHosts() {
        List<Integer> all = ownNamespaceHosts();
        all.add(controllerHost());
        return all;
    }

    public String switchNamespace() {
        return "innet-" + name + "-sw";
    }

    public String namespaceOf(int host) {
        return host == controllerHost() ? switchNamespace() : "innet-" + name + "-h" + host;
    }

    /** The interface in the switch's namespace that p4sim opens as {@code host}'s port. */
    public String switchInterfaceOf(int host) {
        return "p" + RackPorts.portOf(host);
    }

    /** The host's own end of its link, inside its namespace. */
    public String hostInterfaceOf(int host) {
        return host == controllerHost() ? CONTROLLER_INTERFACE : HOST_INTERFACE;
    }

    public String roleOf(int host) {
        if (servers.contains(host)) {
            return "server";
        }
        if (clients.contains(host)) {
            return "client";
        }
        if (host == controllerHost()) {
            return "controller";
        }
        throw new IllegalArgumentException("host " + host + " is not in rack " + name);
    }

    public static String mac(int host) {
        long mac = RackAddressing.hostMac(host);
        StringBuilder sb = new StringBuilder();
        for (int shift = 40; shift >= 0; shift -= 8) {
            if (sb.length() > 0) {
                sb.append(':');
            }
            sb.append(String.format("%02x", (mac >>> shift) & 0xff));
        }
        return sb.toString();
    }

    public static String ip(int host) {
        return RackAddressing.ipToString(RackAddressing.hostIp(host));
    }

    public Path planFile() {
        return stateDir.resolve("plan.txt");
    }

    public Path logDir() {
        return stateDir.resolve("logs");
    }

    public Path logOf(String process) {
        return logDir().resolve(process + ".log");
    }

    public Path socketDir() {
        return stateDir.resolve("sock");
    }

    /** The host process's health and command socket (a Unix socket: reachable from any namespace). */
    public Path socketOf(int host) {
        return socketDir().resolve("h" + host + ".sock");
    }

    /** The host's durable directory (RocksDB of a server, incarnation counters). */
    public Path durableDirOf(int host) {
        return stateDir.resolve("hosts").resolve("h" + host);
    }

    /**
     * Where host {@code host} writes its trace events when the rack was brought up with them (NDJSON,
     * appended by each incarnation; docs/live-rack.md, "Trace events").
     */
    public Path traceEventsOf(int host) {
        return stateDir.resolve("trace-events").resolve("h" + host + ".ndjson");
    }

    /**
     * Where switch {@code sw} of a network of several switches (one p4sim each, {@link RackSwitches}) writes its own
     * trace events (p4sim --trace-frames --trace-switch): one file per switch, since each p4sim appends to its own.
     */
    public Path switchTraceEventsOf(String sw) {
        return stateDir.resolve("trace-events").resolve("h" + dev.innet.sim.simulated.Simulation.ENVIRONMENT_HOST + "-" + sw
                + ".ndjson");
    }

    public Path historyDir() {
        return stateDir.resolve("history");
    }
}
