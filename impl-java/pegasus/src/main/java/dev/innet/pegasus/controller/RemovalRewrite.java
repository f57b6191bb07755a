package dev.innet.pegasus.controller;

import dev.innet.kv.KvStatus;
import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.InnetMessage;
import java.math.BigInteger;

/**
 * Ends a removal that has not ended (issue 16; the spec's RemovalRewriteAtTail and ServerRewrite,
 * PegasusChain.tla). A key marked for removal leaves the directory only on a home WRITE-REPLY at or above
 * the mark (§6.3, P-12). A cold key may never be written again, and under at-most-once a retry stamped at
 * or above the mark is answered by home's detector with its recorded, older version: the removal then
 * waits for ever. The controller ends it with a write of its own, under §6.4's transition pause:
 * <ol>
 *   <li>pause the key's writes and wait the drain time (no client write of the key is stamped from now
 *       on, and every one stamped before has arrived);
 *   <li>read every server's copy of the key (the controller's reads go where they are addressed, P-21)
 *       and take the newest: a write that ran on a replica only is not hidden;
 *   <li>send that copy as a WRITE (a DELETE for a tombstone or no copy) from the CPU port to home: the
 *       switch stamps it with ver_next, at or above the mark (P-21 lets it pass the pause), home executes
 *       it, and home's reply ends the removal (P-12);
 *   <li>resume writes once the key has left the directory (or the reply came back).
 * </ol>
 * Why the pause is needed: the write raises home's version without a client's new value, so a client
 * write stamped below it and reaching home after it would be acknowledged as superseded and lost. The
 * pause and drain leave none; a condition at home on the version the controller read would not
 * (PegasusChain.tla's BugRewriteNoDrain: a write stamped just before the rewrite is reordered behind it
 * while home still holds the version read). The rewrite is resent with the same request id until
 * answered: home's detector answers a copy it has executed with the recorded version, which is at or above
 * the mark as well.
 */
final class RemovalRewrite extends KeyProcedure {
    private final ServerRequests requests;
    private int stage;
    private long drainedAt;
    private long sentAt;
    private InnetMessage newest;
    private InnetMessage rewrite;
    private boolean answered;

    RemovalRewrite(PegasusController controller, byte[] key, int index) {
        super(controller, key, index);
        this.requests = new ServerRequests(controller);
    }

    @Override
    public boolean step(SwitchControl c) {
        boolean marked = c.registerRead(DirectoryNames.KEY_STATE, index).intValue() == DirectoryNames.KEY_MARKED;
        switch (stage) {
            case 0 -> {
                if (!marked) {
                    return finish(c, false);
                }
                if (controller.pausesRemovalRewrite()) {
                    c.registerWrite(DirectoryNames.WRITE_PAUSED, index, BigInteger.ONE);
                    drainedAt = controller.now() + controller.drainNanos();
                } else {
                    drainedAt = controller.now(); // seeded bug only: the unguarded rewrite
                }
                stage = 1;
            }
            case 1 -> {
                if (controller.now() < drainedAt) {
                    return false;
                }
                if (!marked) {
                    return finish(c, false); // a client write ended the removal during the drain
                }
                for (int host : controller.serverHosts()) {
                    requests.send(host, PegasusOp.READ, 0, key, 0, 0, new byte[0]);
                }
                stage = 2;
            }
            case 2 -> {
                boolean settled = requests.settled();
                for (PegasusPacket a : requests.drainAnswers()) {
                    InnetMessage m = a.message();
                    if (m.op() == PegasusOp.READ_REPLY && (newest == null || m.seq() > newest.seq())) {
                        newest = m;
                    }
                }
                if (settled) {
                    boolean value = newest != null && newest.seq() > 0 && newest.status() == KvStatus.OK;
                    rewrite = PegasusPacket.message(value ? PegasusOp.WRITE : PegasusOp.DELETE, 0, 0,
                            controller.nextRequestId(), key, 0, PegasusExt.NONE, value ? newest.value() : new byte[0]);
                    send();
                    stage = 3;
                }
            }
            case 3 -> {
                if (!marked || answered) {
                    return finish(c, true);
                }
                if (controller.now() - sentAt >= controller.retryNanos()) {
                    send();
                }
            }
            default -> throw new IllegalStateException("RemovalRewrite past its last stage");
        }
        return false;
    }

    private void send() {
        sentAt = controller.now();
        controller.sendToHost(controller.hostOfIndex(home), rewrite);
    }

    private boolean finish(SwitchControl c, boolean rewritten) {
        c.registerWrite(DirectoryNames.WRITE_PAUSED, index, BigInteger.ZERO);
        controller.removalRewriteDone(key, index, rewritten);
        return true;
    }

    @Override
    public boolean onReply(PegasusPacket p) {
        if (requests.onReply(p)) {
            return true;
        }
        InnetMessage m = p.message();
        if (rewrite != null && m.reqId() == rewrite.reqId() && m.op() == PegasusOp.replyOf(rewrite.op())) {
            answered = true;
            return true;
        }
        return false;
    }
}
