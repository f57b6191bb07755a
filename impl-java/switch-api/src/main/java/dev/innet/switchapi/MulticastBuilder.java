package dev.innet.switchapi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * bmv2's multicast model (groups of nodes, each node a replication id and a port set) on top of
 * {@link SwitchControl#multicastGroupSet}: used by the STF runner and the bmv2-CLI command port.
 */
public final class MulticastBuilder {
    private record Node(int rid, List<Integer> ports) { }

    private final SwitchControl control;
    private final Map<Integer, Node> nodes = new HashMap<>();
    private final Map<Integer, List<Integer>> groups = new LinkedHashMap<>();
    private int nextHandle;

    public MulticastBuilder(SwitchControl control) {
        this.control = control;
    }

    public void createGroup(int group) {
        if (groups.containsKey(group)) {
            throw new ControlException("multicast group " + group + " already exists");
        }
        control.multicastGroupSet(group, List.of());
        groups.put(group, new ArrayList<>());
    }

    public void destroyGroup(int group) {
        if (groups.remove(group) == null) {
            throw new ControlException("multicast group " + group + " does not exist");
        }
        control.multicastGroupDelete(group);
    }

    /** Returns the node handle. */
    public int createNode(int rid, List<Integer> ports) {
        for (int p : ports) {
            if (p < 0 || p > 510) {
                throw new ControlException("port " + p + " out of range [0, 510]");
            }
        }
        int h = nextHandle++;
        nodes.put(h, new Node(rid, List.copyOf(ports)));
        return h;
    }

    public void associate(int group, int handle) {
        List<Integer> g = groups.get(group);
        if (g == null) {
            throw new ControlException("multicast group " + group + " does not exist");
        }
        if (!nodes.containsKey(handle)) {
            throw new ControlException("multicast node handle " + handle + " does not exist");
        }
        if (g.contains(handle)) {
            throw new ControlException("node " + handle + " already associated with group " + group);
        }
        g.add(handle);
        push(group);
    }

    public void dissociate(int group, int handle) {
        List<Integer> g = groups.get(group);
        if (g == null || !g.remove((Integer) handle)) {
            throw new ControlException("node " + handle + " is not associated with group " + group);
        }
        push(group);
    }

    private void push(int group) {
        List<Replica> replicas = new ArrayList<>();
        for (int h : groups.get(group)) {
            Node n = nodes.get(h);
            for (int p : n.ports()) {
                replicas.add(new Replica(p, n.rid()));
            }
        }
        control.multicastGroupSet(group, replicas);
    }
}
