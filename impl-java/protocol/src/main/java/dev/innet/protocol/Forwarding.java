package dev.innet.protocol;

import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.RackAddressing;
import java.math.BigInteger;
import java.util.List;

/**
 * The forwarding every rack program shares (p4/include: the {@code ipv4_forward} table): one exact
 * entry per host, to the port the host is cabled to. A switch OS installs it whenever it sees a freshly
 * started switch, which has lost every table.
 */
public final class Forwarding {
    public static final String IPV4_FORWARD = "MyIngress.ipv4_forward";
    public static final String SET_EGRESS_PORT = "MyIngress.set_egress_port";

    private Forwarding() {}

    public static void install(SwitchControl control, List<Integer> hosts) {
        install(control, hosts, RackPorts::portOf);
    }

    /** One entry per host, to {@code portOf(host)}: for a switch of a network, the port towards the host. */
    public static void install(SwitchControl control, List<Integer> hosts, java.util.function.IntUnaryOperator portOf) {
        for (int host : hosts) {
            control.addEntry(new EntrySpec(IPV4_FORWARD, List.of(Match.exact(RackAddressing.hostIp(host) & 0xffffffffL)),
                    0, SET_EGRESS_PORT, List.of(BigInteger.valueOf(portOf.applyAsInt(host)))));
        }
    }

    /** Whether the switch already forwards (so it kept running while its controller restarted). */
    public static boolean installed(SwitchControl control) {
        return !control.readEntries(IPV4_FORWARD).isEmpty();
    }
}
