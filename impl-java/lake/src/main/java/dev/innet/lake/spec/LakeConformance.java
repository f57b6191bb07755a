package dev.innet.lake.spec;

import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecReplay;
import java.util.List;
import java.util.Map;

/** LaKe's spec (specs/lake/Lake.tla) and its replay on the implementation ({@link LakeReplay}). */
public final class LakeConformance implements SpecConformance {
    @Override
    public String spec() {
        return "specs/lake/Lake.tla";
    }

    /**
     * One key with a loss and an eviction; one key with a device reset; two keys sharing the first
     * layer's slot (hits in both layers); then the conformance model that puts all of them together.
     */
    @Override
    public List<String> conformanceModels() {
        return List.of("MCLake", "MCLakeReset", "MCLakeTwoKeys", "MCLakeConform");
    }

    @Override
    public Map<String, String> notReplayable() {
        return LakeReplay.NOT_REPLAYABLE;
    }

    @Override
    public SpecReplay newReplay(ReplayTarget target) {
        return new LakeReplay(target);
    }
}
