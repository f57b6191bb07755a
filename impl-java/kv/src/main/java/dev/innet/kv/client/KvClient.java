package dev.innet.kv.client;

import dev.innet.kv.ConsistentHashRing;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.PacketPrologue;
import dev.innet.protocol.KvClientLibrary;
import dev.innet.protocol.KvResult;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpKind;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import java.util.function.Consumer;

/**
 * The client library of the key-value cache family, as an event-driven component a client node
 * embeds: one operation outstanding at a time (what a history's "client" is), timeouts and retries on
 * the node's timers, request ids unique across restarts, and every operation recorded in a history
 * when a recorder is given.
 *
 * <p>History identity: after an operation ends unknown (timeout) the recorder requires its successors
 * to use a new client id, as Jepsen does for a crashed process; the id is host * 1,000,000 +
 * incarnation * 10,000 + unknowns so far.
 *
 * <p>A protocol whose clients have more duties overrides {@link #onSwitchAnsweredWrite} and
 * {@link #onControl}; FarReach's record preservation does.
 */
public class KvClient implements KvClientLibrary {
    private static final long REQ_ID_COUNTER_MASK = 0x00ff_ffffL;

    protected final NodeContext ctx;
    private final ClientConfig config;
    private final ConsistentHashRing ring;
    private final ClientHistory history;


    private long nextRequest = 1;
    private Pending pending;

    private static final class Pending {
        final OpKind kind;
        final InnetMessage request;
        final Consumer<KvResult> callback;
        final long historyId;
        int attempts;
        long timer;

        Pending(OpKind kind, InnetMessage request, Consumer<KvResult> callback, long historyId) {
            this.kind = kind;
            this.request = request;
            this.callback = callback;
            this.historyId = historyId;
        }
    }

    /** @param history where operations are recorded, or null to record nothing */
    public KvClient(NodeContext ctx, ClientConfig config, HistoryRecorder history) {
        if (ctx.incarnation() > 255) {
            throw new IllegalStateException("request ids reserve 8 bits for the incarnation");
        }
        this.ctx = ctx;
        this.config = config;
        this.ring = new ConsistentHashRing(config.serverHosts());
        this.history = new ClientHistory(ctx, history);
    }

    @Override
    public boolean busy() {
        return pending != null;
    }

    @Override
    public void get(byte[] key, Consumer<KvResult> done) {
        start(OpKind.GET, KvOp.GET, key, new byte[0], done);
    }

    @Override
    public void put(byte[] key, byte[] value, Consumer<KvResult> done) {
        start(OpKind.PUT, KvOp.PUT, key, value, done);
    }

    @Override
    public void delete(byte[] key, Consumer<KvResult> done) {
        start(OpKind.DELETE, KvOp.DEL, key, new byte[0], done);
    }

    /** The history client id operations are currently recorded under. */
    public int historyClientId() {
        return history.clientId();
    }

    private void start(OpKind kind, int op, byte[] key, byte[] value, Consumer<KvResult> done) {
        if (pending != null) {
            throw new IllegalStateException("one operation at a time per client (a history client has one outstanding op)");
        }
        if (key.length != InnetMessage.KEY_BYTES) {
            throw new IllegalArgumentException("keys are 16 bytes on the wire; pad with InnetMessage.key(...)");
        }
        if (nextRequest > REQ_ID_COUNTER_MASK) {
            // request ids must only grow (farreach.p4 drops a write whose id is below its client's last)
            throw new IllegalStateException("client exhausted the 2^24 request ids of its incarnation");
        }
        long reqId = ((long) ctx.incarnation() << 24) | nextRequest++;
        InnetMessage request = newRequest(op, reqId, key, value);
        long historyId = history.invoke(kind, key, kind == OpKind.PUT ? value : null);
        pending = new Pending(kind, request, done, historyId);
        transmit();
    }

    /** Every attempt is addressed anew: a chain's reconfiguration (Pegasus §7) moves a key's head or tail. */
    private void transmit() {
        pending.attempts++;
        onRequestSent(pending.request, pending.attempts);
        int server = serverFor(pending.kind, pending.request.key());
        int me = ctx.hostNumber();
        ctx.network().send(new UdpFrame(RackAddressing.hostMac(server), RackAddressing.hostMac(me), RackAddressing.hostIp(me),
                RackAddressing.hostIp(server), config.sourcePort(), serverPort(), pending.request.encode()));
        pending.timer = ctx.timers().schedule(config.timeoutNanos());
    }

    /**
     * The server host an attempt of an operation on {@code key} is addressed to: the key's owner on the
     * consistent-hash ring of the configured servers. Pegasus's chains (§7) send writes to the head
     * rack and reads to the tail rack.
     */
    protected int serverFor(OpKind kind, byte[] key) {
        return ring.ownerOf(key);
    }

    /** Offers a received frame; returns true if it was this client's reply (consumed). */
    @Override
    public boolean onPacket(byte[] bytes) {
        // malformed frames are not ours to interpret: declined, so the host may count them
        InnetPacket packet = PacketPrologue.decodeOrDrop(bytes, f -> true, () -> {});
        if (packet == null) {
            return false;
        }
        if (packet.frame().dstPort() == KvOp.CONTROL_PORT) {
            return onControl(packet);
        }
        if (packet.frame().dstPort() != config.sourcePort() || packet.frame().srcPort() != serverPort()) {
            return false;
        }
        InnetMessage reply = packet.message();
        if (pending == null || reply.reqId() != pending.request.reqId() || !isReplyTo(reply.op(), pending.request.op())) {
            onReplyIgnored(reply);
            return false; // a late reply to an earlier attempt's operation, or a duplicate: ignore
        }
        if (reply.status() == KvStatus.UNAVAILABLE) {
            return true; // the server asks us to retry; the pending timer will
        }
        ctx.timers().cancel(pending.timer);
        boolean fromSwitch = (reply.flags() & KvOp.FLAG_FROM_SWITCH) != 0;
        KvResult.Outcome outcome = switch (reply.status()) {
            case KvStatus.OK -> KvResult.Outcome.OK;
            case KvStatus.NOT_FOUND -> pending.kind == OpKind.GET ? KvResult.Outcome.NOT_FOUND : KvResult.Outcome.FAILED;
            default -> KvResult.Outcome.FAILED;
        };
        if (outcome == KvResult.Outcome.OK && fromSwitch && pending.kind != OpKind.GET) {
            onSwitchAnsweredWrite(pending.request, reply.seq());
        }
        onReplyAccepted(pending.request, reply);
        byte[] value = outcome == KvResult.Outcome.OK && pending.kind == OpKind.GET ? reply.value() : new byte[0];
        finish(new KvResult(outcome, value, reply.seq(), fromSwitch, reply.status(), pending.attempts));
        return true;
    }

    /** Offers a fired timer; returns true if it was this client's. */
    @Override
    public boolean onTimer(long timerId) {
        if (pending == null || timerId != pending.timer) {
            return false;
        }
        boolean mayRetry = pending.kind == OpKind.GET || (config.retryWrites() && mayRetryWrite());
        if (mayRetry && pending.attempts < config.maxAttempts()) {
            transmit();
        } else {
            onGaveUp(pending.request);
            finish(new KvResult(KvResult.Outcome.TIMED_OUT, new byte[0], 0, false, -1, pending.attempts));
        }
        return true;
    }

    /**
     * Whether the pending write may be sent again (only asked if the configuration retries writes). A
     * protocol whose switch recognises a retried write only while it remembers the first copy says no once
     * it knows the switch forgot; true by default.
     */
    protected boolean mayRetryWrite() {
        return true;
    }

    /**
     * The request is being sent (attempt 1) or retransmitted after a timeout (attempt 2, 3, ...). A hook for
     * protocols that emit trace events (docs/conformance.md); nothing by default.
     */
    protected void onRequestSent(InnetMessage request, int attempt) {}

    /** The reply that ends the pending operation (from the switch or a server). A trace hook; nothing by default. */
    protected void onReplyAccepted(InnetMessage request, InnetMessage reply) {}

    /** The operation is abandoned after its last timeout (outcome unknown). A trace hook; nothing by default. */
    protected void onGaveUp(InnetMessage request) {}

    /**
     * A message from a server's port that ends no pending operation: a late or duplicated reply. It
     * passed the switch on its way, which may have acted on it (a cache refilled by a late reply), so
     * trace validation needs to see it. A trace hook; nothing by default.
     */
    protected void onReplyIgnored(InnetMessage reply) {}

    /**
     * A write the switch acknowledged itself (a write-back cache absorbed it), with the sequence number
     * the switch gave it. Nothing to do for a write-through family member.
     */
    protected void onSwitchAnsweredWrite(InnetMessage request, long seq) {}

    /** A message on the control port (from the controller); returns true if this client consumed it. */
    protected boolean onControl(InnetPacket packet) {
        return false;
    }

    private void finish(KvResult result) {
        Pending p = pending;
        pending = null;
        history.complete(p.historyId, p.kind, result);
        p.callback.accept(result);
    }

    private static boolean isReplyTo(int replyOp, int requestOp) {
        if (requestOp == KvOp.GET) {
            return replyOp == KvOp.GET_REPLY || replyOp == KvOp.GET_FOR_CACHE_REPLY;
        }
        return replyOp == KvOp.replyOf(requestOp);
    }

    /**
     * The servers' UDP port: the key-value family's 5008. A protocol with the family's GET/PUT/DEL op
     * numbers on its own port and header extension (Pegasus, 5010) overrides this and
     * {@link #newRequest}.
     */
    protected int serverPort() {
        return KvOp.KV_PORT;
    }

    /** The request message of a new operation (op GET, PUT or DEL). */
    protected InnetMessage newRequest(int op, long reqId, byte[] key, byte[] value) {
        return InnetMessage.of(op, reqId, key, 0, value);
    }
}
