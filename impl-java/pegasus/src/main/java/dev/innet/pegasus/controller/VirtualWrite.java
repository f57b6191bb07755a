package dev.innet.pegasus.controller;

import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;

/**
 * The spec's VirtualWrite (§6.3): a read-mostly key is spread to more servers without a client write.
 * Its writes are paused and drained first (not in the paper: TLC found that a write stamped below
 * ver_completed reaching home after the virtual write is lost, specs/pegasus MCPegasus_VWNoDrain); then,
 * if the key is active and home is in its replica set, home is told to raise its version to
 * ver_completed and copy the value to the servers not in the set, whose replies add them (Alg. 2).
 * Writes resume as soon as the virtual write is sent: later writes are stamped above ver_completed.
 */
final class VirtualWrite extends KeyProcedure {
    private int stage;
    private long drainedAt;

    VirtualWrite(PegasusController controller, byte[] key, int index) {
        super(controller, key, index);
    }

    @Override
    public boolean step(SwitchControl c) {
        if (stage == 0) {
            c.registerWrite(DirectoryNames.WRITE_PAUSED, index, BigInteger.ONE);
            drainedAt = controller.now() + controller.drainNanos();
            stage = 1;
            return false;
        }
        if (controller.now() < drainedAt) {
            return false;
        }
        boolean active = c.registerRead(DirectoryNames.KEY_STATE, index).intValue() == DirectoryNames.KEY_ACTIVE;
        long rset = c.registerRead(DirectoryNames.RSET_BITMAP, index).longValue();
        long completed = c.registerRead(DirectoryNames.VER_COMPLETED, index).longValue();
        long targets = controller.allServersMask() & ~rset;
        if (active && (rset & (1L << home)) != 0 && targets != 0) {
            long reqId = controller.nextRequestId();
            controller.virtualWriteSent(key, completed, home, targets, reqId);
            controller.sendToHost(controller.hostOfIndex(home), dev.innet.pegasus.wire.PegasusPacket.message(
                    PegasusOp.VIRTUAL_WRITE, 0, 0, reqId, key, completed,
                    new dev.innet.pegasus.wire.PegasusExt(targets, 0, 0, 0), new byte[0]));
        }
        c.registerWrite(DirectoryNames.WRITE_PAUSED, index, BigInteger.ZERO);
        return true;
    }
}
