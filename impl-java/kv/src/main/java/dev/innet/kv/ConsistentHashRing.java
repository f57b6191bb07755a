package dev.innet.kv;

import dev.innet.sim.Hashing;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Assigns keys to servers by consistent hashing with virtual nodes, so adding a server moves only
 * about 1/n of the keys. Clients, servers and the controller build the ring from the same server
 * list and get the same owner for every key: the hash is a fixed function (64-bit FNV-1a followed by
 * a finalising mix), independent of the JVM.
 */
public final class ConsistentHashRing {
    public static final int DEFAULT_VIRTUAL_NODES = 64;

    private final TreeMap<Long, Integer> ring = new TreeMap<>();
    private final List<Integer> servers;

    public ConsistentHashRing(List<Integer> serverHosts, int virtualNodes) {
        if (serverHosts.isEmpty()) {
            throw new IllegalArgumentException("a ring needs at least one server");
        }
        if (virtualNodes < 1) {
            throw new IllegalArgumentException("virtual nodes must be positive");
        }
        if (serverHosts.stream().distinct().count() != serverHosts.size()) {
            throw new IllegalArgumentException("duplicate server in " + serverHosts);
        }
        this.servers = List.copyOf(serverHosts);
        for (int host : serverHosts) {
            for (int v = 0; v < virtualNodes; v++) {
                long point = Hashing.splitMix64(Hashing.fnv1a64(new byte[] {(byte) (host >>> 8), (byte) host, (byte) (v >>> 8), (byte) v}));
                Integer previous = ring.put(point, host);
                if (previous != null) {
                    // A 64-bit collision between virtual nodes: keep the ring a function of the list.
                    ring.put(point, Math.min(previous, host));
                }
            }
        }
    }

    public ConsistentHashRing(List<Integer> serverHosts) {
        this(serverHosts, DEFAULT_VIRTUAL_NODES);
    }

    /** The host number of the server that owns {@code key} (16-byte wire key). */
    public int ownerOf(byte[] key) {
        Map.Entry<Long, Integer> e = ring.ceilingEntry(Hashing.splitMix64(Hashing.fnv1a64(key)));
        return (e != null ? e : ring.firstEntry()).getValue();
    }

    public List<Integer> servers() {
        return servers;
    }
}
