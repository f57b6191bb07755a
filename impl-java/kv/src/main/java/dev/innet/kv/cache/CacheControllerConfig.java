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
 * @param clientSilenceReportNanos how long a procedure that needs every client's answer (FarReach's recovery
 *                           collecting preserved records) waits before it logs the clients still silent,
 *                           and logs again each period. It never goes on without them: a silent client may
 *                           be partitioned, not crashed, and hold the only copy of acknowledged writes
 */
public record CacheControllerConfig(List<Integer> hosts, List<Integer> servers, List<Integer> clients, int capacity,
        long controlStepNanos, long idlePollNanos, long counterResetNanos, int evictionSample, int admissionQueue,
        int hotThreshold, List<byte[]> preload, long clientSilenceReportNanos) {
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
        if (controlStepNanos < 1 || idlePollNanos < 1 || counterResetNanos < 1 || clientSilenceReportNanos < 1) {
            throw new IllegalArgumentException("controller periods must be positive");
        }
        if (hotThreshold < 0) {
            throw new IllegalArgumentException("hot threshold must be >= 0");
        }
        if (evictionSample < 1 || admissionQueue < 1) {
            throw new IllegalArgumentException("eviction sample and admission queue must be positive");
        }
    }

    /** A client round trip in the simulator's racks is microseconds; 5 ms of silence is worth a log line. */
    public static final long MIN_CLIENT_SILENCE_REPORT_NANOS = 5_000_000;

    /**
     * The rack's settings with the controller's usual constants (sample 8, queue 64, idle poll 200 us). Silent
     * clients are reported after at least the rack's client timeout (a live rack's round trips take
     * milliseconds).
     */
    public static CacheControllerConfig of(dev.innet.protocol.RackSpec rack) {
        return new CacheControllerConfig(rack.allHosts(), rack.servers(), rack.clients(), rack.cacheCapacity(),
                rack.controlStepNanos(), 200_000, rack.counterResetNanos(), 8, 64, rack.hotThreshold(), rack.preload(),
                Math.max(MIN_CLIENT_SILENCE_REPORT_NANOS, rack.clientTimeoutNanos()));
    }
}
