package dev.innet.protocol;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The switches of one simulated run and how they are cabled: every switch runs the protocol's P4
 * program, every host is cabled to one port of one switch, and cables join switch ports. A rack is the
 * one-switch case ({@link #singleSwitch}); a leaf-spine network (DistCache's two cache layers) has
 * several. Pure data with shortest-path helpers, so a controller can compute forwarding entries for any
 * shape, and recompute them around failed switches.
 *
 * @param switches switch names, in the order the harness creates them
 * @param hosts    host number -> the switch port it is cabled to
 * @param cables   switch-to-switch cables
 */
public record Topology(List<String> switches, Map<Integer, Attachment> hosts, List<Cable> cables) {
    /** Where a host is cabled. */
    public record Attachment(String switchName, int port) {}

    /** A cable between port {@code portA} of switch {@code a} and port {@code portB} of switch {@code b}. */
    public record Cable(String a, int portA, String b, int portB) {}

    public Topology {
        switches = List.copyOf(switches);
        hosts = new TreeMap<>(hosts);
        cables = List.copyOf(cables);
        if (switches.isEmpty()) {
            throw new IllegalArgumentException("a topology has at least one switch");
        }
        if (switches.stream().distinct().count() != switches.size()) {
            throw new IllegalArgumentException("duplicate switch name in " + switches);
        }
        Map<String, java.util.Set<Integer>> used = new LinkedHashMap<>();
        for (String s : switches) {
            used.put(s, new java.util.TreeSet<>());
        }
        for (Map.Entry<Integer, Attachment> e : hosts.entrySet()) {
            claim(used, e.getValue().switchName(), e.getValue().port(), "host " + e.getKey());
        }
        for (Cable c : cables) {
            if (c.a().equals(c.b())) {
                throw new IllegalArgumentException("a cable joins two different switches: " + c);
            }
            claim(used, c.a(), c.portA(), "cable " + c);
            claim(used, c.b(), c.portB(), "cable " + c);
        }
    }

    private static void claim(Map<String, java.util.Set<Integer>> used, String sw, int port, String what) {
        java.util.Set<Integer> ports = used.get(sw);
        if (ports == null) {
            throw new IllegalArgumentException(what + " names unknown switch " + sw);
        }
        if (port < 0 || port > 510) {
            throw new IllegalArgumentException(what + ": port " + port + " is outside v1model's 0..510");
        }
        if (!ports.add(port)) {
            throw new IllegalArgumentException(what + ": port " + port + " of " + sw + " is already cabled");
        }
    }

    /** The classic rack: one switch named {@code tor}, every host on {@link RackPorts#portOf} of it. */
    public static Topology singleSwitch(RackSpec rack) {
        Map<Integer, Attachment> hosts = new TreeMap<>();
        for (int h : rack.allHosts()) {
            hosts.put(h, new Attachment("tor", RackPorts.portOf(h)));
        }
        return new Topology(List.of("tor"), hosts, List.of());
    }

    /** The switch a host is cabled to. */
    public String switchOf(int host) {
        Attachment a = hosts.get(host);
        if (a == null) {
            throw new IllegalArgumentException("host " + host + " is not in the topology");
        }
        return a.switchName();
    }

    /** Hosts cabled to switch {@code s}. */
    public List<Integer> hostsOn(String s) {
        List<Integer> out = new ArrayList<>();
        hosts.forEach((h, a) -> {
            if (a.switchName().equals(s)) {
                out.add(h);
            }
        });
        return out;
    }

    /**
     * The port of switch {@code from} on a shortest path to switch {@code to} that avoids the switches
     * in {@code avoid}; ties go to the lowest port. -1 if {@code from == to} or no such path exists.
     */
    public int portTowardSwitch(String from, String to, Collection<String> avoid) {
        requireSwitch(from);
        requireSwitch(to);
        if (from.equals(to) || avoid.contains(to) || avoid.contains(from)) {
            return -1;
        }
        Map<String, Integer> distance = distancesTo(to, Set.copyOf(avoid));
        Integer mine = distance.get(from);
        if (mine == null) {
            return -1;
        }
        int best = -1;
        for (Link l : linksOf(from)) {
            Integer d = distance.get(l.peer);
            if (d != null && d == mine - 1 && (best < 0 || l.port < best)) {
                best = l.port;
            }
        }
        return best;
    }

    /**
     * The port of switch {@code from} towards {@code host}: the host's own port if it is cabled to
     * {@code from}, else the first hop of a shortest path to its switch avoiding {@code avoid} (-1: none).
     */
    public int portTowardHost(String from, int host, Collection<String> avoid) {
        Attachment a = hosts.get(host);
        if (a == null) {
            throw new IllegalArgumentException("host " + host + " is not in the topology");
        }
        if (a.switchName().equals(from)) {
            return a.port();
        }
        return portTowardSwitch(from, a.switchName(), avoid);
    }

    private record Link(int port, String peer) {}

    private List<Link> linksOf(String s) {
        List<Link> out = new ArrayList<>();
        for (Cable c : cables) {
            if (c.a().equals(s)) {
                out.add(new Link(c.portA(), c.b()));
            } else if (c.b().equals(s)) {
                out.add(new Link(c.portB(), c.a()));
            }
        }
        return out;
    }

    /** Breadth-first hop counts to {@code target} over switches not in {@code avoid}. */
    private Map<String, Integer> distancesTo(String target, Set<String> avoid) {
        Map<String, Integer> distance = new LinkedHashMap<>();
        Deque<String> queue = new ArrayDeque<>();
        distance.put(target, 0);
        queue.add(target);
        while (!queue.isEmpty()) {
            String s = queue.poll();
            for (Link l : linksOf(s)) {
                if (!avoid.contains(l.peer) && !distance.containsKey(l.peer)) {
                    distance.put(l.peer, distance.get(s) + 1);
                    queue.add(l.peer);
                }
            }
        }
        return distance;
    }

    private void requireSwitch(String s) {
        if (!switches.contains(s)) {
            throw new IllegalArgumentException("unknown switch " + s + " (have " + switches + ")");
        }
    }
}
