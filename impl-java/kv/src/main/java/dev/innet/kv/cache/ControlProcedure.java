package dev.innet.kv.cache;

import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.InnetMessage;

/**
 * A multi-step control-plane procedure (an admission, an eviction, a snapshot, a recovery). The
 * controller calls {@link #step} once per control step, so packets interleave between steps exactly
 * as they would between real P4Runtime writes.
 */
public interface ControlProcedure {
    /** Performs one step; returns true when the procedure has finished. */
    boolean step(SwitchControl control);

    /** A control packet arrived; returns true if this procedure consumed it. */
    default boolean onReply(InnetMessage msg) {
        return false;
    }

    /** The name monitors and tests see while it runs (the spec action it implements, where there is one). */
    default String procedureName() {
        return getClass().getSimpleName();
    }
}
