package dev.innet.distcache;

import dev.innet.distcache.wire.DcOp;
import dev.innet.protocol.RackPorts;
import dev.innet.protocol.RackSpec;
import dev.innet.protocol.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The two-layer leaf-spine network DistCache runs on (§4.1, Figure 5): {@code spines} upper-layer cache
 * switches, {@code leaves} storage racks whose ToR switches are the lower layer, and one client rack whose
 * ToR routes reads by the power of two choices. Servers are spread over the storage racks in order
 * (server i in rack i mod leaves); clients and the controller sit under the client ToR.
 *
 * <p>Names, node numbers and ports (the controller derives every forwarding entry from the
 * {@link Topology}, never from these constants):
 * <ul>
 *   <li>{@code spine<i>} (i = 1..spines): cache node i, upper layer; port 200+j to {@code leaf<j>},
 *       port 250 to the client ToR;</li>
 *   <li>{@code leaf<j>} (j = 1..leaves): cache node 100+j, lower layer; its servers on their host
 *       numbers; port 150+i to {@code spine<i>};</li>
 *   <li>{@code ctor}: no cache; clients on their host numbers, the controller on the CPU port 64,
 *       port 150+i to {@code spine<i>}.</li>
 * </ul>
 */
public record DistCacheNetwork(int spines, int leaves) {
    public static final String CLIENT_TOR = "ctor";
    public static final int LEAF_NODE_BASE = 100;

    public DistCacheNetwork {
        if (spines < 1 || spines > 40) {
            throw new IllegalArgumentException("spines must be 1..40, got " + spines);
        }
        if (leaves < 1 || leaves > 40) {
            throw new IllegalArgumentException("leaves must be 1..40, got " + leaves);
        }
    }

    public static String spine(int i) {
        return "spine" + i;
    }

    public static String leaf(int j) {
        return "leaf" + j;
    }

    /** The rack (1-based) of the {@code index}-th server (0-based). */
    public int rackOfServer(int index) {
        return index % leaves + 1;
    }

    /** Every cache switch by node number. */
    public Map<Integer, String> cacheNodes() {
        Map<Integer, String> nodes = new TreeMap<>();
        for (int i = 1; i <= spines; i++) {
            nodes.put(i, spine(i));
        }
        for (int j = 1; j <= leaves; j++) {
            nodes.put(LEAF_NODE_BASE + j, leaf(j));
        }
        return nodes;
    }

    /** The cache node number of switch {@code name}, 0 if it is not a cache switch. */
    public int nodeOf(String name) {
        for (Map.Entry<Integer, String> e : cacheNodes().entrySet()) {
            if (e.getValue().equals(name)) {
                return e.getKey();
            }
        }
        return 0;
    }

    /** The layer of switch {@code name}: {@link DcOp#LAYER_UPPER}, {@link DcOp#LAYER_LOWER} or none. */
    public int layerOf(String name) {
        int n = nodeOf(name);
        return n == 0 ? DcOp.LAYER_NONE : n > LEAF_NODE_BASE ? DcOp.LAYER_LOWER : DcOp.LAYER_UPPER;
    }

    public Topology topology(RackSpec rack) {
        List<String> names = new ArrayList<>();
        List<Topology.Cable> cables = new ArrayList<>();
        for (int i = 1; i <= spines; i++) {
            names.add(spine(i));
        }
        for (int j = 1; j <= leaves; j++) {
            names.add(leaf(j));
            for (int i = 1; i <= spines; i++) {
                cables.add(new Topology.Cable(leaf(j), 150 + i, spine(i), 200 + j));
            }
        }
        names.add(CLIENT_TOR);
        for (int i = 1; i <= spines; i++) {
            cables.add(new Topology.Cable(CLIENT_TOR, 150 + i, spine(i), 250));
        }
        Map<Integer, Topology.Attachment> hosts = new TreeMap<>();
        for (int s = 0; s < rack.servers().size(); s++) {
            int h = rack.servers().get(s);
            requireHostPort(h);
            hosts.put(h, new Topology.Attachment(leaf(rackOfServer(s)), h));
        }
        for (int c : rack.clients()) {
            requireHostPort(c);
            hosts.put(c, new Topology.Attachment(CLIENT_TOR, c));
        }
        hosts.put(rack.controllerHost(), new Topology.Attachment(CLIENT_TOR, RackPorts.CPU_PORT));
        return new Topology(names, hosts, cables);
    }

    private static void requireHostPort(int h) {
        if (h >= 150) {
            throw new IllegalArgumentException("host " + h + " would take a fabric port (150+); use fewer hosts");
        }
    }
}
