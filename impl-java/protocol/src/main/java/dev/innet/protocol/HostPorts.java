package dev.innet.protocol;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;

/**
 * The UDP ports a protocol's hosts listen on, per role: a live host binds one socket per port and sends
 * each frame from the socket of its source port, so every port a role's node receives on or sends from
 * must be here (docs/live-rack.md, "Ports"). The simulator delivers by host and needs none of this; a
 * live rack, whose kernels deliver by port, does.
 *
 * @param server     a storage server's ports (every server host of the protocol, whatever its duty)
 * @param controller the controller's (switch OS's) ports, on the switch's CPU port
 * @param client     a client host's ports: the client library's source port, and any port servers or
 *                   the controller send to clients on
 */
public record HostPorts(List<Integer> server, List<Integer> controller, List<Integer> client) {
    /** The roles of a rack's hosts, as the live rack names them ({@code --role}). */
    public enum Role {
        SERVER, CONTROLLER, CLIENT;

        /** The role called {@code name} (server, controller, client); anything else is refused, naming it. */
        public static Role named(String name) {
            for (Role r : values()) {
                if (r.name().toLowerCase(Locale.ROOT).equals(name)) {
                    return r;
                }
            }
            throw new IllegalArgumentException("unknown role '" + name + "' (server, controller, client)");
        }
    }

    /**
     * The key-value family's layout (FarReach, NetCache, no-cache): servers on 5008 (requests) and 5009
     * (FarReach's control messages), the controller on 5009, clients on 40000 (their source port) and
     * 5009 (FarReach's recovery asks clients for their preserved records there). The same numbers as
     * {@code kv.KvOp.KV_PORT}, {@code KvOp.CONTROL_PORT} and {@code FamilyRack}'s client port; a test of the
     * kv module keeps them in step.
     */
    public static final HostPorts KEY_VALUE_FAMILY = new HostPorts(List.of(5008, 5009), List.of(5009), List.of(40000, 5009));

    public HostPorts {
        server = checked("server", server);
        controller = checked("controller", controller);
        client = checked("client", client);
    }

    private static List<Integer> checked(String role, List<Integer> ports) {
        List<Integer> copy = List.copyOf(ports);
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("a " + role + " listens on at least one port");
        }
        HashSet<Integer> seen = new HashSet<>();
        for (int p : copy) {
            if (p < 1 || p > 65_535) {
                throw new IllegalArgumentException(role + " port " + p + " is not a UDP port (1..65535)");
            }
            if (!seen.add(p)) {
                throw new IllegalArgumentException(role + " port " + p + " is listed twice");
            }
        }
        return copy;
    }

    /** The ports of {@code role}'s hosts. */
    public List<Integer> of(Role role) {
        return switch (role) {
            case SERVER -> server;
            case CONTROLLER -> controller;
            case CLIENT -> client;
        };
    }

    /** One line for plans and listings: {@code server=5010 controller=5010,40254 client=40010}. */
    public String describe() {
        return "server=" + join(server) + " controller=" + join(controller) + " client=" + join(client);
    }

    private static String join(List<Integer> ports) {
        return String.join(",", ports.stream().map(String::valueOf).toList());
    }
}
