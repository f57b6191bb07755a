package dev.innet.pegasus;

import dev.innet.kv.ConsistentHashRing;
import dev.innet.protocol.RackSpec;
import dev.innet.wire.RackAddressing;
import java.util.List;

/**
 * A Pegasus rack as every node sees it: server hosts and their indices (a server's bit in the switch's
 * replica-set bitmap is its position in {@code servers}), keys' home servers by consistent hashing (§5),
 * the controller's host and the timing every node agrees on.
 *
 * @param servers          storage server hosts; index i is bit i of rset (at most 32, pegasus_sizes.p4)
 * @param controllerHost   the controller (the switch's CPU port)
 * @param clientTimeoutNanos how long a client waits for one attempt
 * @param clientAttempts   attempts per operation, reads and writes (writes are safe to retry: §6.4)
 * @param directorySlots   replicated keys the controller may use (rkeys entries)
 * @param drainNanos       how long a paused key's writes are given to leave the network before a
 *                         transition (the spec's Drained; the simulated links' delays are bounded)
 */
public record PegasusRack(List<Integer> servers, int controllerHost, long clientTimeoutNanos, int clientAttempts,
        int directorySlots, long drainNanos) {
    /** pegasus_sizes.p4 MAX_SERVERS */
    public static final int MAX_SERVERS = 32;
    /** pegasus_sizes.p4 DIR_SLOTS */
    public static final int MAX_DIRECTORY_SLOTS = 1024;

    public PegasusRack {
        servers = List.copyOf(servers);
        if (servers.isEmpty() || servers.size() > MAX_SERVERS) {
            throw new IllegalArgumentException("a Pegasus rack has 1.." + MAX_SERVERS + " servers, got " + servers.size());
        }
        if (directorySlots < 1 || directorySlots > MAX_DIRECTORY_SLOTS) {
            throw new IllegalArgumentException("directory slots must be 1.." + MAX_DIRECTORY_SLOTS);
        }
        if (clientTimeoutNanos <= 0 || clientAttempts < 1 || drainNanos < 0) {
            throw new IllegalArgumentException("invalid Pegasus client or drain settings");
        }
    }

    /**
     * The drain is at least 500 us (the simulator's links deliver well within it) and at least one client
     * timeout: a live rack's round trips take milliseconds and its port faults hold frames back up to
     * 15 ms, so a write stamped before the pause could otherwise reach its home after the key's client
     * table was migrated (and a retry then execute it again). In the simulator the client timeout is
     * 500 us too, so its racks are unchanged.
     */
    public static PegasusRack of(RackSpec rack) {
        return new PegasusRack(rack.servers(), rack.controllerHost(), rack.clientTimeoutNanos(), 8,
                Math.min(Math.max(rack.cacheCapacity(), 1), MAX_DIRECTORY_SLOTS), Math.max(500_000, rack.clientTimeoutNanos()));
    }

    public ConsistentHashRing ring() {
        return new ConsistentHashRing(servers);
    }

    /** The index of server host {@code host}, or -1 if it is not a server. */
    public int indexOf(int host) {
        return servers.indexOf(host);
    }

    public int hostOf(int index) {
        return servers.get(index);
    }

    public int indexOfIp(int ip) {
        return indexOf(RackAddressing.hostOfIp(ip));
    }
}
