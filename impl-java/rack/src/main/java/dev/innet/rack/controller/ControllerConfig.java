package dev.innet.rack.controller;

import dev.innet.rack.CacheProgram;
import dev.innet.rack.switchos.ControlNames;
import java.util.List;

/**
 * @param program            which switch program the controller drives
 * @param hosts              every host of the rack (forwarding entries), controller included
 * @param servers            the storage servers (consistent-hash ring)
 * @param capacity           cache records the controller uses (at most the program's 16384)
 * @param controlStepNanos   time one control-plane step takes (one P4Runtime write batch): packets
 *                           interleave between steps exactly as they would between real writes
 * @param idlePollNanos      how often an idle controller looks for work and switch restarts
 * @param counterResetNanos  period of the Count-Min Sketch and cached-counter reset (§3.2)
 * @param evictionSample     cached counters sampled to pick an eviction victim (§3.3)
 * @param admissionQueue     hot reports waiting for admission at most (rate limit; extra reports dropped)
 * @param evictRetryNanos    EVICT_STORE retransmission interval until the server acknowledges
 * @param hotThreshold       Count-Min estimate at which the switch flags a key hot (0: the program's
 *                           default of 20, FarReach §5.1); small racks use less to get cache churn
 * @param preload            keys admitted in one batch when a fresh switch is brought up, before any
 *                           traffic is let through (the load phase of a benchmark; empty otherwise)
 * @param clients            client hosts: told when snapshots cover their preserved records, asked for
 *                           those records when the switch is recovered (FarReach §3.4)
 * @param snapshotPeriodNanos time between crash-consistent snapshots (FarReach only; 0 = none; the
 *                           paper's and innet's default is 10 s of simulated time)
 * @param bugs               seeded bugs for monitor tests; empty in every real configuration
 */
public record ControllerConfig(CacheProgram program, List<Integer> hosts, List<Integer> servers, int capacity,
        long controlStepNanos, long idlePollNanos, long counterResetNanos, int evictionSample, int admissionQueue,
        long evictRetryNanos, int hotThreshold, List<byte[]> preload, List<Integer> clients, long snapshotPeriodNanos,
        java.util.Set<SeededBug> bugs) {
    public ControllerConfig {
        hosts = List.copyOf(hosts);
        servers = List.copyOf(servers);
        preload = List.copyOf(preload);
        clients = List.copyOf(clients);
        bugs = bugs.isEmpty() ? java.util.Set.of() : java.util.EnumSet.copyOf(bugs);
        if (snapshotPeriodNanos < 0) {
            throw new IllegalArgumentException("snapshot period must be >= 0");
        }
        if (preload.size() > capacity) {
            throw new IllegalArgumentException("cannot preload more keys than the cache holds");
        }
        if (capacity < 1 || capacity > ControlNames.CACHE_CAPACITY) {
            throw new IllegalArgumentException("capacity must be in 1.." + ControlNames.CACHE_CAPACITY);
        }
        if (controlStepNanos < 1 || idlePollNanos < 1 || counterResetNanos < 1 || evictRetryNanos < 1) {
            throw new IllegalArgumentException("controller periods must be positive");
        }
        if (hotThreshold < 0) {
            throw new IllegalArgumentException("hot threshold must be >= 0");
        }
        if (evictionSample < 1 || admissionQueue < 1) {
            throw new IllegalArgumentException("eviction sample and admission queue must be positive");
        }
    }

    /** FarReach's snapshot period: 10 seconds (of simulated time in a simulation). */
    public static final long DEFAULT_SNAPSHOT_PERIOD_NANOS = 10_000_000_000L;

    public static ControllerConfig defaults(CacheProgram program, List<Integer> hosts, List<Integer> servers,
            int capacity) {
        return new ControllerConfig(program, hosts, servers, capacity, 20_000, 1_000_000, 1_000_000_000, 8, 64,
                2_000_000, 0, List.of(), List.of(), DEFAULT_SNAPSHOT_PERIOD_NANOS, java.util.Set.of());
    }
}
