package dev.innet.live;

import dev.innet.protocol.Protocol;
import dev.innet.protocol.RackSpec;
import dev.innet.protocol.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The switches of a live rack and how they are cabled, from the protocol's {@link Topology} (the same
 * one the simulator builds): one p4sim process per switch, all in the rack's switch namespace, each with
 * its own control port on that namespace's loopback, so the controller (which lives there too) reaches
 * every switch's control API. Pure naming: it creates nothing.
 *
 * <p>A one-switch rack keeps the names it always had: process {@code switch}, control port
 * {@link RackLayout#SWITCH_CONTROL_PORT}, interface {@code p<port>}. A rack of several switches
 * (DistCache's leaf-spine network) names process {@code switch-<name>}, gives the i-th switch (0-based, in
 * the topology's order) control port {@code 9090 + i}, and calls port P of the i-th switch
 * {@code s<i+1>p<P>}; a cable between two switch ports is a veth pair whose both ends are in the switch
 * namespace, one opened by each p4sim.
 */
public record RackSwitches(Topology topology) {
    /** The process name of a one-switch rack's switch (also what the campaigns' nemeses kill there). */
    public static final String SINGLE_SWITCH_PROCESS = "switch";
    private static final String PROCESS_PREFIX = "switch-";

    public RackSwitches {
        if (topology.switches().size() > 9) {
            // interface names must fit the kernel's 15 bytes and control ports stay below bmv2's 9559
            throw new IllegalArgumentException("a live rack runs at most 9 switches, the topology has "
                    + topology.switches().size());
        }
    }

    /** The switches of {@code protocol}'s live rack of this layout. */
    public static RackSwitches of(Protocol protocol, RackLayout layout) {
        RackSpec spec = HostMain.rackSpec(layout, protocol);
        Topology topology = protocol.topology(spec);
        for (int host : topology.hosts().keySet()) {
            if (!spec.allHosts().contains(host)) {
                // a rack lays out servers, clients and one controller; hosts of the protocol's own (Pegasus's
                // per-rack controllers, §7) have no namespace, process or address plan here
                throw new IllegalArgumentException(protocol.name() + "'s network has hosts of its own (host " + host
                        + ", e.g. another switch's controller) that live racks cannot lay out: it runs in the simulator "
                        + "(./innet sim --program " + protocol.name() + ")");
            }
        }
        return new RackSwitches(topology);
    }

    public boolean several() {
        return topology.switches().size() > 1;
    }

    public List<String> names() {
        return topology.switches();
    }

    public String processOf(String sw) {
        requireSwitch(sw);
        return several() ? PROCESS_PREFIX + sw : SINGLE_SWITCH_PROCESS;
    }

    /** Every switch's process name, in the topology's order. */
    public List<String> processes() {
        return names().stream().map(this::processOf).toList();
    }

    /** The switch a process name of this rack stands for (a restart names the process). */
    public Optional<String> switchOfProcess(String process) {
        for (String sw : names()) {
            if (processOf(sw).equals(process)) {
                return Optional.of(sw);
            }
        }
        return Optional.empty();
    }

    public int controlPortOf(String sw) {
        return RackLayout.SWITCH_CONTROL_PORT + index(sw);
    }

    /** The interface in the switch namespace that {@code sw}'s p4sim opens as its port {@code port}. */
    public String interfaceOf(String sw, int port) {
        return several() ? "s" + (index(sw) + 1) + "p" + port : "p" + port;
    }

    /** The switch-side end of host {@code h}'s link. */
    public String interfaceOfHost(int h) {
        Topology.Attachment a = attachmentOf(h);
        return interfaceOf(a.switchName(), a.port());
    }

    public Topology.Attachment attachmentOf(int h) {
        Topology.Attachment a = topology.hosts().get(h);
        if (a == null) {
            throw new IllegalArgumentException("host " + h + " is not cabled in the topology");
        }
        return a;
    }

    /** Every port of {@code sw} (host links and cables), port number -> interface, in port order. */
    public Map<Integer, String> portsOf(String sw) {
        requireSwitch(sw);
        Map<Integer, String> ports = new TreeMap<>();
        for (Topology.Attachment a : topology.hosts().values()) {
            if (a.switchName().equals(sw)) {
                ports.put(a.port(), interfaceOf(sw, a.port()));
            }
        }
        for (Topology.Cable c : topology.cables()) {
            if (c.a().equals(sw)) {
                ports.put(c.portA(), interfaceOf(sw, c.portA()));
            }
            if (c.b().equals(sw)) {
                ports.put(c.portB(), interfaceOf(sw, c.portB()));
            }
        }
        return ports;
    }

    /** The veth pairs that cable switch to switch: both interface names of each. */
    public List<String[]> cableInterfaces() {
        List<String[]> out = new ArrayList<>();
        for (Topology.Cable c : topology.cables()) {
            out.add(new String[] {interfaceOf(c.a(), c.portA()), interfaceOf(c.b(), c.portB())});
        }
        return out;
    }

    /** What the plan records (setting {@code switches}) for status and the campaigns: {@code process:port,...}. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        for (String sw : names()) {
            parts.add(processOf(sw) + ":" + controlPortOf(sw));
        }
        return String.join(",", parts);
    }

    private int index(String sw) {
        int i = topology.switches().indexOf(sw);
        if (i < 0) {
            throw new IllegalArgumentException("no switch '" + sw + "' in " + topology.switches());
        }
        return i;
    }

    private void requireSwitch(String sw) {
        index(sw);
    }
}
