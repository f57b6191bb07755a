package dev.innet.lake.client;

import dev.innet.kv.ConsistentHashRing;
import dev.innet.lake.LakeTraceEvents;
import dev.innet.sim.TraceEvent;
import dev.innet.kv.client.ClientHistory;
import dev.innet.lake.host.MemcachedHost;
import dev.innet.lake.wire.ByteString;
import dev.innet.lake.wire.McDatagram;
import dev.innet.lake.wire.McException;
import dev.innet.lake.wire.McFrame;
import dev.innet.lake.wire.McOpcode;
import dev.innet.lake.wire.McRequest;
import dev.innet.lake.wire.McResponse;
import dev.innet.lake.wire.McStatus;
import dev.innet.lake.wire.MemcachedUdpCodec;
import dev.innet.protocol.KvClientLibrary;
import dev.innet.protocol.KvResult;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpKind;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;
import java.util.List;
import java.util.function.Consumer;

/**
 * A memcached client over UDP and the binary protocol, as a client host of a LaKe rack embeds it:
 * one operation at a time, keys spread over the memcached hosts by the family's consistent-hash ring,
 * GETs retried on timeout, SETs and DELETEs not (a retried SET whose first copy was applied can
 * overwrite a newer one; a timed-out write ends unknown). A reply matches by the frame's request id
 * and the opaque, both chosen here; LaKe's answers are recognised by the IPv4 identification
 * {@link #LAKE_ANSWER_IP_ID} its data plane writes into them (a mark memcached clients ignore).
 *
 * <p>History identity as in the family's {@code KvClient} ({@link ClientHistory}).
 */
public final class LakeClient implements KvClientLibrary {
    public static final int LAKE_ANSWER_IP_ID = 0x4C4B;
    private static final int IP_ID_OFFSET = 18;

    private final NodeContext ctx;
    private final ConsistentHashRing ring;
    private final ClientHistory history;
    private final long timeoutNanos;
    private final int maxAttempts;
    private final int sourcePort;

    private int nextRequestId = 1;
    private Pending pending;

    private static final class Pending {
        final OpKind kind;
        final McRequest request;
        final byte[] frame;
        final int requestId;
        final Consumer<KvResult> callback;
        final long historyId;
        int attempts;
        long timer;

        Pending(OpKind kind, McRequest request, byte[] frame, int requestId, Consumer<KvResult> callback, long historyId) {
            this.kind = kind;
            this.request = request;
            this.frame = frame;
            this.requestId = requestId;
            this.callback = callback;
            this.historyId = historyId;
        }
    }

    public LakeClient(NodeContext ctx, List<Integer> memcachedHosts, long timeoutNanos, int maxAttempts, int sourcePort,
            HistoryRecorder history) {
        this.ctx = ctx;
        this.ring = new ConsistentHashRing(memcachedHosts);
        this.timeoutNanos = timeoutNanos;
        this.maxAttempts = maxAttempts;
        this.sourcePort = sourcePort;
        this.history = new ClientHistory(ctx, history);
    }

    @Override
    public boolean busy() {
        return pending != null;
    }

    @Override
    public void get(byte[] key, Consumer<KvResult> done) {
        start(OpKind.GET, id -> McRequest.get(ByteString.of(key), id), key, null, done);
    }

    @Override
    public void put(byte[] key, byte[] value, Consumer<KvResult> done) {
        start(OpKind.PUT, id -> McRequest.set(ByteString.of(key), ByteString.of(value), 0, 0, id), key, value, done);
    }

    @Override
    public void delete(byte[] key, Consumer<KvResult> done) {
        start(OpKind.DELETE, id -> McRequest.delete(ByteString.of(key), id), key, null, done);
    }

    private void start(OpKind kind, java.util.function.IntFunction<McRequest> request, byte[] key, byte[] value,
            Consumer<KvResult> done) {
        if (pending != null) {
            throw new IllegalStateException("one operation at a time per client");
        }
        int requestId = nextRequestId;
        nextRequestId = nextRequestId == 0xffff ? 1 : nextRequestId + 1;
        // the opaque carries incarnation and request id, so a late reply to an earlier incarnation never matches
        McRequest req = request.apply((ctx.incarnation() << 16) | requestId);
        int host = ring.ownerOf(key);
        int me = ctx.hostNumber();
        byte[] frame = new UdpFrame(RackAddressing.hostMac(host), RackAddressing.hostMac(me), RackAddressing.hostIp(me),
                RackAddressing.hostIp(host), sourcePort, MemcachedHost.MEMCACHED_PORT,
                MemcachedUdpCodec.encode(new McDatagram(McFrame.single(requestId), req))).encode();
        long historyId = history.invoke(kind, key, value);
        pending = new Pending(kind, req, frame, requestId, done, historyId);
        transmit();
    }

    private void transmit() {
        pending.attempts++;
        ctx.network().send(pending.frame.clone());
        pending.timer = ctx.timers().schedule(timeoutNanos);
    }

    @Override
    public boolean onPacket(byte[] bytes) {
        UdpFrame frame;
        McDatagram datagram;
        try {
            frame = UdpFrame.decode(bytes);
            if (frame.srcPort() != MemcachedHost.MEMCACHED_PORT || frame.dstPort() != sourcePort) {
                return false;
            }
            datagram = MemcachedUdpCodec.decode(frame.payload());
        } catch (WireException | McException notOurs) {
            return false;
        }
        if (pending == null || !(datagram.message() instanceof McResponse r)
                || datagram.frame().requestId() != pending.requestId || r.opaque() != pending.request.opaque()
                || r.opcode() != pending.request.opcode()) {
            return false; // late, duplicated, or not a reply to what we wait for
        }
        ctx.timers().cancel(pending.timer);
        boolean fromLake = ((bytes[IP_ID_OFFSET] & 0xff) << 8 | (bytes[IP_ID_OFFSET + 1] & 0xff)) == LAKE_ANSWER_IP_ID;
        KvResult.Outcome outcome = switch (r.status()) {
            case McStatus.OK -> KvResult.Outcome.OK;
            case McStatus.KEY_NOT_FOUND -> pending.kind == OpKind.GET ? KvResult.Outcome.NOT_FOUND : KvResult.Outcome.FAILED;
            default -> KvResult.Outcome.FAILED;
        };
        byte[] value = outcome == KvResult.Outcome.OK && pending.kind == OpKind.GET ? r.value().toArray() : new byte[0];
        finish(new KvResult(outcome, value, r.cas(), fromLake, r.status(), pending.attempts));
        return true;
    }

    @Override
    public boolean onTimer(long timerId) {
        if (pending == null || timerId != pending.timer) {
            return false;
        }
        boolean retry = pending.kind == OpKind.GET && pending.attempts < maxAttempts;
        ctx.trace(TraceEvent.of(LakeTraceEvents.CLIENT_TIMEOUT).with("op", pending.kind.name().toLowerCase(java.util.Locale.ROOT))
                .with("retry", retry));
        if (retry) {
            transmit();
        } else {
            finish(new KvResult(KvResult.Outcome.TIMED_OUT, new byte[0], 0, false, -1, pending.attempts));
        }
        return true;
    }

    private void finish(KvResult result) {
        Pending p = pending;
        pending = null;
        history.complete(p.historyId, p.kind, result);
        p.callback.accept(result);
    }
}
