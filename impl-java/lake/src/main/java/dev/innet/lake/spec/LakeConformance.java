package dev.innet.lake.spec;

import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecReplay;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** LaKe's spec (specs/lake/Lake.tla) and its replay on the implementation ({@link LakeReplay}). */
public final class LakeConformance implements SpecConformance {
    private final Function<ReplayTarget, SpecReplay> replays;

    public LakeConformance() {
        this(LakeReplay::new);
    }

    /** @param replays the replay to run on a target (tests pass one with a seeded bug) */
    public LakeConformance(Function<ReplayTarget, SpecReplay> replays) {
        this.replays = replays;
    }

    @Override
    public String spec() {
        return "specs/lake/Lake.tla";
    }

    /**
     * One key with a loss and an eviction; one key with a device reset; two keys sharing the first
     * layer's slot (hits in both layers); then the conformance models that put all of them together,
     * with two keys sharing the first layer's slot, and sharing the second's.
     */
    @Override
    public List<String> conformanceModels() {
        return List.of("MCLake", "MCLakeReset", "MCLakeTwoKeys", "MCLakeConform", "MCLakeConformSharedL2");
    }

    @Override
    public Map<String, String> notReplayable() {
        return LakeReplay.NOT_REPLAYABLE;
    }

    @Override
    public SpecReplay newReplay(ReplayTarget target) {
        return replays.apply(target);
    }
}
