package dev.innet.pegasus.controller;

import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;

/**
 * A directory command sent to the switch as a packet-out (ADD_KEY, MARK_REMOVE) and answered by it.
 * Neither is idempotent (a second ADD_KEY would reset a replica set that has moved on), so a command
 * whose answer is late is never resent blindly: the slot's state register says whether it took effect.
 */
final class SwitchCommand {
    private final PegasusController controller;
    private final int op;
    private final byte[] key;
    private final int index;
    private final int server;
    private final int stateWhenDone;
    private final long version;
    private final int pflags;
    private long sentAt;
    private long reqId;
    private boolean answered;

    SwitchCommand(PegasusController controller, int op, byte[] key, int index, int server, int stateWhenDone) {
        this(controller, op, key, index, server, stateWhenDone, 0, 0);
    }

    /** @param version and {@code pflags}: carried in the packet-out (ADD_KEY's given ver_completed, P-20) */
    SwitchCommand(PegasusController controller, int op, byte[] key, int index, int server, int stateWhenDone, long version,
            int pflags) {
        this.version = version;
        this.pflags = pflags;
        this.controller = controller;
        this.op = op;
        this.key = key;
        this.index = index;
        this.server = server;
        this.stateWhenDone = stateWhenDone;
    }

    void send() {
        reqId = controller.nextRequestId();
        sentAt = controller.now();
        controller.packetOut(op, reqId, key, server, version, pflags);
    }

    boolean onReply(PegasusPacket p) {
        if (p.message().reqId() != reqId || p.message().op() != (op | 0x80)) {
            return false;
        }
        answered = true;
        return true;
    }

    /** True once the switch answered, or its state shows the command took effect; resends otherwise. */
    boolean done(SwitchControl c) {
        if (answered) {
            return true;
        }
        if (controller.now() - sentAt < controller.retryNanos()) {
            return false;
        }
        if (c.registerRead(DirectoryNames.KEY_STATE, index).equals(BigInteger.valueOf(stateWhenDone))) {
            return true;
        }
        send();
        return false;
    }
}
