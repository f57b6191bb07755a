package dev.innet.pegasus.client;

import dev.innet.kv.KvStatus;
import dev.innet.pegasus.PegasusRack;
import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.kv.ConsistentHashRing;
import dev.innet.protocol.KvClientLibrary;
import dev.innet.protocol.KvResult;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpKind;
import dev.innet.sim.history.OpResult;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import java.util.function.Consumer;

/**
 * The Pegasus client library: requests to the key's home server on UDP 5010 (the switch redirects
 * replicated keys, §6.2), one operation outstanding, timeouts and retries on the node's timers. Writes
 * are retried too: with the same request id, so the detector node recognises a retry and does not
 * execute it twice (§6.4: the switch gives every retry a new version, so without the client tables a
 * retried write could overwrite a newer one). Request ids are unique across restarts (incarnation in
 * the top 8 bits). Spec actions: IssueWrite, RetryWrite, IssueRead, RetryRead.
 */
public class PegasusClient implements KvClientLibrary {
    /** UDP source port of requests; replies come back to it. */
    public static final int SOURCE_PORT = 40010;
    private static final long COUNTER_MASK = 0x00ff_ffffL;

    protected final NodeContext ctx;
    private final PegasusRack rack;
    private final ConsistentHashRing ring;
    private final HistoryRecorder history;
    private long nextRequest = 1;
    private int unknownOutcomes;
    private Pending pending;

    private static final class Pending {
        final OpKind kind;
        final InnetMessage request;
        final UdpFrame frame;
        final Consumer<KvResult> done;
        final long historyId;
        int attempts;
        long timer;

        Pending(OpKind kind, InnetMessage request, UdpFrame frame, Consumer<KvResult> done, long historyId) {
            this.kind = kind;
            this.request = request;
            this.frame = frame;
            this.done = done;
            this.historyId = historyId;
        }
    }

    /** @param history where operations are recorded, or null */
    public PegasusClient(NodeContext ctx, PegasusRack rack, HistoryRecorder history) {
        if (ctx.incarnation() > 255) {
            throw new IllegalStateException("request ids reserve 8 bits for the incarnation");
        }
        this.ctx = ctx;
        this.rack = rack;
        this.ring = rack.ring();
        this.history = history;
    }

    @Override
    public boolean busy() {
        return pending != null;
    }

    @Override
    public void get(byte[] key, Consumer<KvResult> done) {
        start(OpKind.GET, PegasusOp.READ, key, new byte[0], done);
    }

    @Override
    public void put(byte[] key, byte[] value, Consumer<KvResult> done) {
        start(OpKind.PUT, PegasusOp.WRITE, key, value, done);
    }

    @Override
    public void delete(byte[] key, Consumer<KvResult> done) {
        start(OpKind.DELETE, PegasusOp.DELETE, key, new byte[0], done);
    }

    /** The history client id (a new one after each unknown outcome, as Jepsen does for a crashed process). */
    public int historyClientId() {
        return ctx.hostNumber() * 1_000_000 + ctx.incarnation() * 10_000 + unknownOutcomes;
    }

    private void start(OpKind kind, int op, byte[] key, byte[] value, Consumer<KvResult> done) {
        if (pending != null) {
            throw new IllegalStateException("one operation at a time per client");
        }
        if (key.length != InnetMessage.KEY_BYTES) {
            throw new IllegalArgumentException("keys are 16 bytes on the wire; pad with InnetMessage.key(...)");
        }
        if (unknownOutcomes >= 10_000) {
            throw new IllegalStateException("client exhausted its history ids after 10,000 unknown outcomes");
        }
        long reqId = ((long) ctx.incarnation() << 24) | (nextRequest++ & COUNTER_MASK);
        // version 0: the switch stamps it (a non-zero version is a chain's upstream stamp, §7)
        InnetMessage request = PegasusPacket.message(op, 0, 0, reqId, key, 0, PegasusExt.NONE, value);
        int home = ring.ownerOf(key);
        int me = ctx.hostNumber();
        UdpFrame frame = new UdpFrame(RackAddressing.hostMac(home), RackAddressing.hostMac(me),
                RackAddressing.hostIp(me), RackAddressing.hostIp(home), SOURCE_PORT, PegasusOp.PORT, request.encode());
        long historyId = history == null ? 0 : history.invoke(historyClientId(), kind, key, kind == OpKind.PUT ? value : null);
        pending = new Pending(kind, request, frame, done, historyId);
        transmit();
    }

    private void transmit() {
        pending.attempts++;
        ctx.network().send(pending.frame);
        pending.timer = ctx.timers().schedule(rack.clientTimeoutNanos());
    }

    @Override
    public boolean onPacket(byte[] bytes) {
        PegasusPacket p = PegasusPacket.decodeOrDrop(bytes, f -> f.dstPort() == SOURCE_PORT && f.srcPort() == PegasusOp.PORT,
                () -> {});
        if (p == null) {
            return false;
        }
        InnetMessage reply = p.message();
        if (pending == null || reply.reqId() != pending.request.reqId()
                || reply.op() != PegasusOp.replyOf(pending.request.op())) {
            return false; // a late or duplicated reply of an earlier attempt or operation
        }
        ctx.timers().cancel(pending.timer);
        KvResult.Outcome outcome = switch (reply.status()) {
            case KvStatus.OK -> KvResult.Outcome.OK;
            case KvStatus.NOT_FOUND -> pending.kind == OpKind.GET ? KvResult.Outcome.NOT_FOUND : KvResult.Outcome.FAILED;
            default -> KvResult.Outcome.FAILED;
        };
        byte[] value = outcome == KvResult.Outcome.OK && pending.kind == OpKind.GET ? reply.value() : new byte[0];
        finish(new KvResult(outcome, value, reply.seq(), false, reply.status(), pending.attempts));
        return true;
    }

    @Override
    public boolean onTimer(long timerId) {
        if (pending == null || timerId != pending.timer) {
            return false;
        }
        if (pending.attempts < rack.clientAttempts()) {
            transmit(); // RetryWrite / RetryRead: same request id
        } else {
            finish(new KvResult(KvResult.Outcome.TIMED_OUT, new byte[0], 0, false, -1, pending.attempts));
        }
        return true;
    }

    private void finish(KvResult result) {
        Pending p = pending;
        pending = null;
        if (history != null) {
            switch (result.outcome()) {
                case OK -> history.complete(p.historyId, OpResult.OK, p.kind == OpKind.GET ? result.value() : null);
                case NOT_FOUND -> history.complete(p.historyId, OpResult.NOT_FOUND, null);
                case FAILED -> history.complete(p.historyId, OpResult.FAIL, null);
                case TIMED_OUT -> history.complete(p.historyId, OpResult.UNKNOWN, null);
            }
        }
        if (result.outcome() == KvResult.Outcome.TIMED_OUT) {
            unknownOutcomes++;
        }
        p.done.accept(result);
    }
}
