package dev.innet.sim.simulated;

/** What happened, as recorded in the event log. The ordinal is part of the hash: append, never reorder. */
public enum EventKind {
    /** A node handed a frame to its link. */
    SEND,
    /** A frame reached a node and its {@code onPacket} ran. */
    DELIVER,
    /** A frame reached a switch port and the switch processed it. */
    SWITCH_IN,
    /** The switch emitted a frame on a port. */
    SWITCH_OUT,
    /** A frame was lost (the detail says why: link fault, partition, node down, queue full, no link). */
    DROP,
    /** A link fault made a second copy of a frame. */
    DUPLICATE,
    /** A node's timer fired and its {@code onTimer} ran. */
    TIMER,
    /** A node or switch started (first start or restart after a crash). */
    START,
    /** A node or switch crashed, losing its volatile state. */
    CRASH,
    /** A scheduled action ran: fault settings changed, partition began or ended, heal, test action. */
    ACTION,
    /** A node wrote a line with {@code NodeContext.log}. */
    NODE_LOG
}
