package dev.innet.pegasus.chain;

import dev.innet.kv.ConsistentHashRing;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Where a key lives across racks (§7, two layers of consistent hashing): the key's chain visits every
 * live rack, starting at a rack picked by a hash of the key (so with two racks each rack is the head for
 * about half of the keys and the tail for the others, as in the paper's §9.8), and inside a rack the
 * key's home is the owner on that rack's consistent-hash ring (§5).
 */
public final class ChainPlacement {
    private final List<List<Integer>> rackServers;
    private final List<ConsistentHashRing> rings = new ArrayList<>();

    /** @param rackServers rack r's server hosts at index r-1 */
    public ChainPlacement(List<List<Integer>> rackServers) {
        this.rackServers = List.copyOf(rackServers.stream().map(List::copyOf).toList());
        for (List<Integer> servers : this.rackServers) {
            rings.add(new ConsistentHashRing(servers));
        }
    }

    public int racks() {
        return rackServers.size();
    }

    public List<Integer> serversOf(int rack) {
        return rackServers.get(rack - 1);
    }

    /** The rack whose servers include {@code host}, or 0 if none. */
    public int rackOfServer(int host) {
        for (int r = 1; r <= racks(); r++) {
            if (serversOf(r).contains(host)) {
                return r;
            }
        }
        return 0;
    }

    /** The key's chain in {@code view}: its live racks, head first, tail last. */
    public List<Integer> chainOf(byte[] key, ChainView view) {
        int first = firstRack(key);
        List<Integer> chain = new ArrayList<>();
        for (int i = 0; i < racks(); i++) {
            int r = (first - 1 + i) % racks() + 1;
            if (view.isLive(r)) {
                chain.add(r);
            }
        }
        return chain;
    }

    public int headOf(byte[] key, ChainView view) {
        return chainOf(key, view).get(0);
    }

    public int tailOf(byte[] key, ChainView view) {
        List<Integer> chain = chainOf(key, view);
        return chain.get(chain.size() - 1);
    }

    /** The rack after {@code rack} in the key's chain, or 0 if {@code rack} is its tail (or not in it). */
    public int nextAfter(int rack, byte[] key, ChainView view) {
        List<Integer> chain = chainOf(key, view);
        int i = chain.indexOf(rack);
        return i < 0 || i == chain.size() - 1 ? 0 : chain.get(i + 1);
    }

    /** The key's home server host inside {@code rack}. */
    public int homeIn(int rack, byte[] key) {
        return rings.get(rack - 1).ownerOf(key);
    }

    /** The rack that heads the key's chain when every rack is live. */
    private int firstRack(byte[] key) {
        CRC32 crc = new CRC32();
        crc.update(key);
        return (int) (crc.getValue() % racks()) + 1;
    }
}
