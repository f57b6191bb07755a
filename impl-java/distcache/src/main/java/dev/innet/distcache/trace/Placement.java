package dev.innet.distcache.trace;

import dev.innet.distcache.DistCacheNetwork;
import dev.innet.distcache.controller.UpperPartition;
import dev.innet.kv.ConsistentHashRing;
import java.util.HexFormat;
import java.util.List;

/**
 * The spec's constant {@code Place}: each key's home cache node per layer, as the controller partitions them
 * (upper layer: the CRC bucket's home spine; lower layer: the ToR of the key's server's rack). A spine's
 * buckets move while it is down and come back with it; the spec's copy of a layer is the key's copy wherever
 * it is, and Place only says which keys a crash of a node loses: the keys at home there.
 */
final class Placement {
    private final DistCacheNetwork network;
    private final List<Integer> servers;
    private final UpperPartition upper;
    private final ConsistentHashRing ring;

    Placement(DistCacheNetwork network, List<Integer> servers) {
        this.network = network;
        this.servers = List.copyOf(servers);
        this.upper = new UpperPartition(network.spines());
        this.ring = new ConsistentHashRing(servers);
    }

    int upperHome(String keyHex) {
        return upper.home(UpperPartition.bucket(HexFormat.of().parseHex(keyHex)));
    }

    int lowerHome(String keyHex) {
        int server = ring.ownerOf(HexFormat.of().parseHex(keyHex));
        return DistCacheNetwork.LEAF_NODE_BASE + network.rackOfServer(servers.indexOf(server));
    }
}
