package dev.innet.farreach.spec;

import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecReplay;

/** FarReach's spec (specs/farreach/FarReach.tla) and its replay on the implementation. */
public final class FarReachConformance implements SpecConformance {
    @Override
    public String spec() {
        return "specs/farreach/FarReach.tla";
    }

    /**
     * One key (admission, eviction, loss), duplication, three keys and two cache slots, then a snapshot
     * with admission and eviction (most of its behaviours replay; the rest interleave the snapshot with
     * an admission or eviction, which the one-procedure-at-a-time controller cannot, and are reported as
     * not replayed), client crashes (a conformance-only model: no switch crash, no snapshot), and a
     * switch crash and recovery with a snapshot and an eviction, and write retries with loss and duplication.
     */
    @Override
    public java.util.List<String> conformanceModels() {
        return java.util.List.of("MCFarReachCache", "MCFarReachDup", "MCFarReachCacheLarge", "MCFarReachSnapshot",
                "MCFarReachClientCrashConform", "MCFarReachRecovery", "MCFarReachRetry");
    }

    @Override
    public java.util.Map<String, String> notReplayable() {
        return FarReachReplay.NOT_REPLAYABLE;
    }

    @Override
    public SpecReplay newReplay(ReplayTarget target) {
        return new FarReachReplay(target);
    }
}
