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

    /** One key (admission, eviction, loss), duplication, then three keys and two cache slots. */
    @Override
    public java.util.List<String> conformanceModels() {
        return java.util.List.of("MCFarReachCache", "MCFarReachDup", "MCFarReachCacheLarge");
    }

    @Override
    public SpecReplay newReplay(ReplayTarget target) {
        return new FarReachReplay(target);
    }
}
