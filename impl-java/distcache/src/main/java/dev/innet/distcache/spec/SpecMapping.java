package dev.innet.distcache.spec;

import java.util.Map;
import java.util.TreeMap;

/**
 * Where each action of specs/distcache/DistCache.tla ({@code Next}) happens in the implementation: a
 * rule of p4/distcache.p4 (DC-n, pinned by p4/tests/distcache.stf), a Java class and method, or the
 * environment (faults the harness injects). A test keeps it in step with the spec: every action of
 * {@code Next} is mapped, and every mapped name is an action of the spec.
 */
public final class SpecMapping {
    /** Spec action name -> where it is implemented. */
    public static final Map<String, String> ACTIONS = actions();

    private SpecMapping() {}

    private static Map<String, String> actions() {
        Map<String, String> m = new TreeMap<>();
        m.put("ClientWrite", "DistCacheClient.put/delete (KvClient); writes go to the key's server unrouted (DC-11)");
        m.put("ClientReadHit", "DistCacheClient.get; client ToR's power of two choices (DC-1), routing (DC-2), the copy "
                + "answers (DC-3)");
        m.put("ClientReadMiss", "DistCacheClient.get; DC-1, DC-2, the copy misses and forwards to the server (DC-4)");
        m.put("ClientGiveUp", "KvClient.onTimer (last attempt timed out)");
        m.put("ServerWrite", "DistCacheServer.beginWrite (next version, INV to both layers, resend timer)");
        m.put("ServerResendInv", "DistCacheServer.onTimer (INV again for each layer not acknowledged)");
        m.put("ServerInvAck", "DistCacheServer.onInvalidationAck (the second acknowledgement: complete = apply, "
                + "acknowledge the client, UPD to both layers)");
        m.put("ServerGet", "DistCacheServer.answerRead");
        m.put("ServerFetch", "DistCacheServer.acceptFetch / start (a fill only while no write of the key is in phase 1)");
        m.put("CacheInv", "p4/distcache.p4 DC-5 (resolution, or acknowledged where no node holds the key) and DC-6");
        m.put("CacheUpdate", "p4/distcache.p4 DC-7, DC-8 (taken or refused: version guard, insertion token)");
        m.put("CacheInsert", "DistCacheController.insert (HOT report: invalid, seen 0, token, lookup entry, FETCH) and "
                + "retryFetch");
        m.put("CacheRefetch", "DistCacheController.refetchStuckCopies (a copy found invalid at two polls, no fill "
                + "pending: fresh token, FETCH) and retryFetch");
        m.put("CacheEvict", "DistCacheController.evictBucket (before buckets move back to a returning spine), "
                + "retryFetch (an abandoned insertion)");
        m.put("CacheCrash", "environment: Rack.crashSwitch (p4sim rebuilt empty); DistCacheController.onFailure / "
                + "onSwitchUp (re-partition, reprogram)");
        m.put("Lose", "environment: loss of any message (sim LinkFaults); duplication is each delivery's d");
        return m;
    }
}
