package dev.innet.distcache.spec;

import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecReplay;
import java.util.List;
import java.util.Map;

/**
 * DistCache's spec (specs/distcache/DistCache.tla) and its replay on the implementation, which runs
 * several switches: the target it is given and more of the same program ({@link ReplayTarget#another}).
 */
public final class DistCacheConformance implements SpecConformance {
    @Override
    public String spec() {
        return "specs/distcache/DistCache.tla";
    }

    /**
     * The small MANIFEST models with a fault each (loss, duplicate, crash, eviction), the agent's re-fill
     * (MCDistCacheRefetch), then the
     * simulation model that puts them all together on two keys with two leaf switches.
     */
    @Override
    public List<String> conformanceModels() {
        return List.of("MCDistCacheLoss", "MCDistCacheDup", "MCDistCacheCrash", "MCDistCacheEvict", "MCDistCacheReadsLoss",
                "MCDistCacheRefetch", "MCDistCacheRandom");
    }

    @Override
    public Map<String, String> notReplayable() {
        return DistCacheReplay.NOT_REPLAYABLE;
    }

    @Override
    public SpecReplay newReplay(ReplayTarget target) {
        return new DistCacheReplay(target);
    }
}
