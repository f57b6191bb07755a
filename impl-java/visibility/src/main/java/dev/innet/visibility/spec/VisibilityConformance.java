package dev.innet.visibility.spec;

import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecReplay;
import java.util.List;
import java.util.Map;

/** The visibility layer's spec (specs/visibility/Visibility.tla) and its replay on the implementation. */
public final class VisibilityConformance implements SpecConformance {
    @Override
    public String spec() {
        return "specs/visibility/Visibility.tla";
    }

    /**
     * MANIFEST's small models with MCVisibility's key layout (every key in one slot): losses and every
     * kind of timeout on two colliding keys, a duplicate of any message, a switch crash and its
     * resynchronisation (alone and with a loss), a metadata node crash and rebuild (alone and with a loss);
     * then the conformance-only MCVisibilityClearConform, whose behaviours often lose a clear or its
     * acknowledgement and re-send it (MdnClearTimeout).
     */
    @Override
    public List<String> conformanceModels() {
        return List.of("MCVisibility", "MCVisibilityDup", "MCVisibilitySwCrash", "MCVisibilitySwCrashLoss",
                "MCVisibilityMdnCrash", "MCVisibilityMdnCrashLoss", "MCVisibilityClearConform");
    }

    @Override
    public Map<String, String> notReplayable() {
        return VisibilityReplay.NOT_REPLAYABLE;
    }

    @Override
    public SpecReplay newReplay(ReplayTarget target) {
        return new VisibilityReplay(target);
    }
}
