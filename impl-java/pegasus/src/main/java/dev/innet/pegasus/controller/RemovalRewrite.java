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
 * while home still holds the version read).
 *
 * <p>An attempt that is not answered within the retry time is not resent as it was: the controller reads
 * every copy again and sends a new write, with a new request id. That is what Pegasus.tla's RemovalRewrite
 * is, one attempt (the reads and the stamp) per step, carrying the version it read at home ({@code exp});
 * a resend of the same request would be answered from home's client table with the first attempt's
 * version, which no spec step does. Each attempt is recorded ({@code pegRemovalRewrite}: what was read and
 * what is written) so that trace validation can place the spec step where the switch stamps it.
 */
final class RemovalRewrite extends KeyProcedure {
    private final ServerRequests requests;
    private int stage;
    private long drainedAt;
    private long sentAt;
    /** the newest copy the current attempt has read, and the server it came from */
    private InnetMessage newest;
    private int newestHost;
    /** home's copy as the current attempt read it; its version is the spec's exp */
    private InnetMessage homeCopy;
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
                readEveryCopy();
            }
            case 2 -> {
                boolean settled = requests.settled();
                for (PegasusPacket a : requests.drainAnswers()) {
                    InnetMessage m = a.message();
                    if (m.op() != PegasusOp.READ_REPLY) {
                        continue;
                    }
                    int from = dev.innet.wire.RackAddressing.hostOfIp(a.frame().srcIp());
                    if (from == controller.hostOfIndex(home)) {
                        homeCopy = m;
                    }
                    if (newest == null || m.seq() > newest.seq()) {
                        newest = m;
                        newestHost = from;
                    }
                }
                if (settled) {
                    sendRewrite();
                    stage = 3;
                }
            }
            case 3 -> {
                if (!marked || answered) {
                    return finish(c, true);
                }
                if (controller.now() - sentAt >= controller.retryNanos()) {
                    readEveryCopy(); // a new attempt: read again, then a new write (see the class comment)
                }
            }
            default -> throw new IllegalStateException("RemovalRewrite past its last stage");
        }
        return false;
    }

    /** Starts an attempt: every server's copy is read (the reads are resent until answered). */
    private void readEveryCopy() {
        newest = null;
        newestHost = -1;
        homeCopy = null;
        rewrite = null;
        for (int host : controller.serverHosts()) {
            // flagged: the answers pass the switch without Algorithm 2 (P-22), as the spec's reads do
            requests.send(host, PegasusOp.READ, 0, key, 0, 0, new byte[0], PegasusExt.FLAG_CONTROLLER_READ);
        }
        stage = 2;
    }

    /** Writes the newest copy home (a DELETE for a tombstone or no copy), under a new request id. */
    private void sendRewrite() {
        boolean writesHomeCopy = controller.rewritesHomeCopy(); // seeded bug only: home's copy, not the newest
        InnetMessage copy = writesHomeCopy ? homeCopy : newest;
        boolean value = copy != null && copy.seq() > 0 && copy.status() == KvStatus.OK;
        rewrite = PegasusPacket.message(value ? PegasusOp.WRITE : PegasusOp.DELETE, 0, 0, controller.nextRequestId(), key,
                0, PegasusExt.NONE, value ? copy.value() : new byte[0]);
        controller.removalRewriteSent(key, home, rewrite.reqId(), homeCopy == null ? 0 : homeCopy.seq(),
                writesHomeCopy ? controller.hostOfIndex(home) : newestHost, copy == null ? 0 : copy.seq(), !value,
                rewrite.value());
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
