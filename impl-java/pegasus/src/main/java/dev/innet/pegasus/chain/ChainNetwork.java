package dev.innet.pegasus.chain;

import dev.innet.protocol.RackPorts;
import dev.innet.protocol.RackSpec;
import dev.innet.protocol.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The network of a multi-rack Pegasus deployment (§7): {@code racks} storage racks, each a ToR switch
 * {@code rack<r>} running pegasus.p4 with its own servers and its own controller on its CPU port, and a
 * {@code core} switch that joins them and carries the clients and the configuration service. The core
 * runs pegasus.p4 too, with its rack gate on and no servers of its own, so it only forwards: the paper's
 * "the remainder of the datacenter network remains unmodified".
 *
 * <p>Numbers: the rack's servers are contiguous blocks of the rack's server hosts (rack 1 the first
 * block); rack r's controller is host {@code 200 + r} on its CPU port 64; rack r's port
 * {@link #UPLINK_PORT} is cabled to the core's port {@code 100 + r}; clients sit on the core on their host
 * numbers and the configuration service (host 254) on the core's CPU port.
 */
public record ChainNetwork(int racks) {
    public static final String CORE = "core";
    public static final int RACK_CONTROLLER_BASE = 200;
    public static final int UPLINK_PORT = 100;
    public static final int MAX_RACKS = 8;

    public ChainNetwork {
        if (racks < 1 || racks > MAX_RACKS) {
            throw new IllegalArgumentException("a chain spans 1.." + MAX_RACKS + " racks, got " + racks);
        }
    }

    public static String rackSwitch(int rack) {
        return "rack" + rack;
    }

    public static int controllerOf(int rack) {
        return RACK_CONTROLLER_BASE + rack;
    }

    /** Rack r's servers (1-based r): the r-th of {@code racks} contiguous blocks of {@code servers}. */
    public List<Integer> serversOf(int rack, List<Integer> servers) {
        if (servers.size() < racks) {
            throw new IllegalArgumentException(racks + " racks need at least " + racks + " servers, got " + servers.size());
        }
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            if (i * racks / servers.size() + 1 == rack) {
                out.add(servers.get(i));
            }
        }
        return out;
    }

    /** Every rack's servers, rack 1 first. */
    public List<List<Integer>> rackServers(List<Integer> servers) {
        List<List<Integer>> out = new ArrayList<>();
        for (int r = 1; r <= racks; r++) {
            out.add(serversOf(r, servers));
        }
        return out;
    }

    public Topology topology(RackSpec spec) {
        for (int h : spec.allHosts()) {
            if (h != spec.controllerHost() && RackPorts.portOf(h) >= UPLINK_PORT) {
                throw new IllegalArgumentException("host " + h + " would take the port of an uplink (ports 100.."
                        + (UPLINK_PORT + racks) + "): a chain's rack has fewer than 99 servers and clients");
            }
        }
        List<String> switches = new ArrayList<>();
        Map<Integer, Topology.Attachment> hosts = new TreeMap<>();
        List<Topology.Cable> cables = new ArrayList<>();
        for (int r = 1; r <= racks; r++) {
            switches.add(rackSwitch(r));
            for (int s : serversOf(r, spec.servers())) {
                hosts.put(s, new Topology.Attachment(rackSwitch(r), RackPorts.portOf(s)));
            }
            hosts.put(controllerOf(r), new Topology.Attachment(rackSwitch(r), RackPorts.CPU_PORT));
            cables.add(new Topology.Cable(rackSwitch(r), UPLINK_PORT, CORE, UPLINK_PORT + r));
        }
        switches.add(CORE);
        for (int c : spec.clients()) {
            hosts.put(c, new Topology.Attachment(CORE, RackPorts.portOf(c)));
        }
        hosts.put(spec.controllerHost(), new Topology.Attachment(CORE, RackPorts.CPU_PORT));
        return new Topology(switches, hosts, cables);
    }
}
