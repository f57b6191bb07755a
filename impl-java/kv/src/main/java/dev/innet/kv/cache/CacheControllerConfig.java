package dev.innet.kv.cache;

import java.util.List;

/**
 * The settings every in-switch cache controller shares.
 *
 * @param hosts              every host of the rack (forwarding entries), controller included
 * @param servers            the storage servers (consistent-hash ring)
 * @param clients            client hosts (FarReach tells them about snapshots and asks them in recovery)
 * @param capacity           cache records the controller uses (at most the program's 16384)
 * @param controlStepNanos   time one control-plane step takes (one P4Runtime write batch): packets
 *                           interleave between steps exactly as they would between real writes
 * @param idlePollNanos      how often an idle controller looks for work and switch restarts
 * @param counterResetNanos  period of the Count-Min Sketch and cached-counter reset (§3.2)
 * @param evictionSample     cached counters sampled to pick an eviction victim (§3.3)
 * @param admissionQueue     hot reports waiting for admission at most (rate limit; extra reports dropped)
 * @param hotThreshold       Count-Min estimate at which the switch flags a key hot (0: the program's
 *                           default of 20, FarReach §5.1); small racks use less to get cache churn
 * @param preload            keys admitted in one batch when a fresh switch is brought up, before any
 *                           traffic is let through (the load phase of a benchmark; empty otherwise)
 * @param clientAnswerWaitNanos how long a procedure that asks every client (FarReach's recovery collecting
 *                           preserved records) waits for the answers before it takes a silent client for
 *                           crashed: it must cover a client round trip on the rack's network
 */
public record CacheControllerConfig(List<Integer> hosts, List<Integer> servers, List<Integer> clients, int capacity,
        long controlStepNanos, long idlePollNanos, long counterResetNanos, int evictionSample, int admissionQueue,
        int hotThreshold, List<byte[]> preload, long clientAnswerWaitNanos) {
    public CacheControllerConfig {
        hosts = List.copyOf(hosts);
        servers = List.copyOf(servers);
        clients = List.copyOf(clients);
        preload = List.copyOf(preload);
        if (preload.size() > capacity) {
            throw new IllegalArgumentException("cannot preload more keys than the cache holds");
        }
        if (capacity < 1 || capacity > CacheControlNames.CACHE_CAPACITY) {
            throw new IllegalArgumentException("capacity must be in 1.." + CacheControlNames.CACHE_CAPACITY);
        }
        if (controlStepNanos < 1 || idlePollNanos < 1 || counterResetNanos < 1 || clientAnswerWaitNanos < 1) {
            throw new IllegalArgumentException("controller periods must be positive");
        }
        if (hotThreshold < 0) {
            throw new IllegalArgumentException("hot threshold must be >= 0");
        }
        if (evictionSample < 1 || admissionQueue < 1) {
            throw new IllegalArgumentException("eviction sample and admission queue must be positive");
        }
    }

    /** A client round trip in the simulator's racks is microseconds; 5 ms leaves a wide margin there. */
    public static final long MIN_CLIENT_ANSWER_WAIT_NANOS = 5_000_000;

    /**
     * The rack's settings with the controller's usual constants (sample 8, queue 64, idle poll 200 us). The
     * wait for clients' answers is at least the rack's client timeout: a live rack's round trips take
     * milliseconds (a fixed 5 ms made every live recovery give up on every client and lose the writes
     * only they held: found by the switch-crash nemesis, docs/jepsen.md).
     */
    public static CacheControllerConfig of(dev.innet.protocol.RackSpec rack) {
        return new CacheControllerConfig(rack.allHosts(), rack.servers(), rack.clients(), rack.cacheCapacity(),
                rack.controlStepNanos(), 200_000, rack.counterResetNanos(), 8, 64, rack.hotThreshold(), rack.preload(),
                Math.max(MIN_CLIENT_ANSWER_WAIT_NANOS, rack.clientTimeoutNanos()));
    }
}
