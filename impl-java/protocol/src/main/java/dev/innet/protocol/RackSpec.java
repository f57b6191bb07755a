package dev.innet.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * The shape of one rack, as the harness asks a protocol to populate it. Settings here are the ones
 * every protocol of the family understands; a protocol ignores those it has no use for (no-cache has no
 * cache) and takes its own settings through its own {@code with...} methods.
 *
 * @param servers           storage server hosts
 * @param clients           client hosts
 * @param controllerHost    the controller's host (cabled to the switch's CPU port)
 * @param cacheCapacity     switch cache records the controller may use
 * @param hotThreshold      Count-Min estimate at which the switch flags a key hot (0: the program's default)
 * @param counterResetNanos period of the switch's popularity-counter reset (and of servers' hot reports)
 * @param controlStepNanos  time one control-plane step takes (one P4Runtime write batch)
 * @param preload           keys the controller admits when it brings a fresh switch up (benchmarks)
 * @param clientTimeoutNanos how long a client waits for one attempt's reply
 * @param durableServers    servers keep records in RocksDB under their durable directory (else memory)
 */
public record RackSpec(List<Integer> servers, List<Integer> clients, int controllerHost, int cacheCapacity,
        int hotThreshold, long counterResetNanos, long controlStepNanos, List<byte[]> preload, long clientTimeoutNanos,
        boolean durableServers) {
    public RackSpec {
        servers = List.copyOf(servers);
        clients = List.copyOf(clients);
        preload = List.copyOf(preload);
        if (servers.isEmpty() || clients.isEmpty()) {
            throw new IllegalArgumentException("a rack has at least one server and one client");
        }
    }

    /** Every host the switch forwards to: servers, clients and the controller. */
    public List<Integer> allHosts() {
        List<Integer> all = new ArrayList<>(servers);
        all.addAll(clients);
        all.add(controllerHost);
        return all;
    }
}
