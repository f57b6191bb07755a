package dev.innet.pegasus.controller;

import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.switchapi.SwitchControl;

/**
 * One controller procedure, run one control-plane step per tick (named after the spec's actions:
 * AddKey, MarkRemove, VirtualWrite; and the switch recovery of docs/pegasus.md).
 */
interface Procedure {
    /** Does the next step; returns true when the procedure is finished. */
    boolean step(SwitchControl control);

    /** A packet addressed to the controller; returns true if this procedure consumed it. */
    default boolean onReply(PegasusPacket packet) {
        return false;
    }
}
