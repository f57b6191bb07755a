package dev.innet.netcache.spec;

import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecReplay;
import java.util.List;
import java.util.Map;

/** NetCache's spec (specs/netcache/NetCache.tla) and its replay on the implementation. */
public final class NetCacheConformance implements SpecConformance {
    @Override
    public String spec() {
        return "specs/netcache/NetCache.tla";
    }

    /**
     * One key with a loss, with a duplicate, and with a switch restart (counters seeded above every
     * earlier number, as the controller does); then the conformance-only model that puts all of them
     * together on two keys sharing one cache slot.
     */
    @Override
    public List<String> conformanceModels() {
        return List.of("MCNetCache", "MCNetCacheDup", "MCNetCacheRestartSeqBase", "MCNetCacheConform");
    }

    @Override
    public Map<String, String> notReplayable() {
        return NetCacheReplay.NOT_REPLAYABLE;
    }

    @Override
    public SpecReplay newReplay(ReplayTarget target) {
        return new NetCacheReplay(target);
    }
}
