package dev.innet.distcache.server;

import dev.innet.distcache.DistCacheTraceEvents;
import dev.innet.distcache.wire.DcExt;
import dev.innet.distcache.wire.DcOp;
import dev.innet.kv.ConsistentHashRing;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.PacketPrologue;
import dev.innet.kv.store.RecordStore;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.kv.store.StoredRecord;
import dev.innet.protocol.NodeCounters;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.TraceEvent;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A DistCache storage server with the shim layer of §4.1: it owns its keys (the family's consistent-hash
 * ring), answers reads that missed every cache, and keeps the key's two cached copies coherent with the
 * two-phase update of §4.3 as specs/distcache/DistCache.tla states it:
 * <ol>
 *   <li>a write takes the key's next version and invalidates both layers' copies (INV, one per layer,
 *       the first switch on the way resolves the layer's node), resending until each layer acknowledges
 *       (ServerWrite, ServerResendInv, ServerInvAck);</li>
 *   <li>only then it applies the write and acknowledges the client (safe: no copy is valid);</li>
 *   <li>and sends the record to both copies (UPD, token 0), which become valid again.</li>
 * </ol>
 * Writes of a key are serialized: one in phase 1 at a time, the others wait in arrival order. An agent's
 * insertion request (FETCH) is answered with a fill (UPD with the insertion's token) only while no write of
 * the key is in phase 1 (ServerFetch). Duplicated writes (the network may duplicate a client's PUT) are
 * recognised by the client's request id, which only grows, and executed once.
 *
 * <p>Two hooks exist only so tests can seed the spec's refuted variants as implementation bugs
 * ({@code SeededBugs}); the protocol's own answers are the defaults.
 */
public class DistCacheServer implements Node, NodeCounters {
    /** Writes (and fills) that may wait per key behind the one in phase 1. */
    public static final int MAX_WAITING_PER_KEY = 64;

    private final List<Integer> serverHosts;
    private final RecordStoreOpener opener;
    private final long resendNanos;

    private NodeContext ctx;
    private RecordStore store;
    private ConsistentHashRing ring;
    private int myIp;
    private long nextReqId = 1;
    private final Map<String, KeyState> keys = new TreeMap<>();
    private final Map<Long, String> resendTimers = new TreeMap<>();
    private final Map<Integer, Long> lastWriteOfClient = new TreeMap<>();
    private final Map<Integer, UdpFrame> lastReplyToClient = new TreeMap<>();
    private final Map<String, Long> counters = new LinkedHashMap<>();

    /** A client write in phase 1. */
    private static final class Write {
        final UdpFrame clientFrame;
        final InnetMessage request;
        final StoredRecord record;
        final TreeSet<Integer> acked = new TreeSet<>();
        long resendTimer;

        Write(UdpFrame clientFrame, InnetMessage request, StoredRecord record) {
            this.clientFrame = clientFrame;
            this.request = request;
            this.record = record;
        }
    }

    /** A write or fetch that waits for the key's current write to finish phase 1. */
    private record Waiting(UdpFrame frame, InnetMessage msg, DcExt ext) {}

    private static final class KeyState {
        Write current;
        final Deque<Waiting> waiting = new ArrayDeque<>();
    }

    public DistCacheServer(List<Integer> serverHosts, RecordStoreOpener opener, long resendNanos) {
        if (resendNanos <= 0) {
            throw new IllegalArgumentException("the invalidation resend period must be positive");
        }
        this.serverHosts = List.copyOf(serverHosts);
        this.opener = opener;
        this.resendNanos = resendNanos;
    }

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        if (!serverHosts.contains(context.hostNumber())) {
            throw new IllegalStateException("host " + context.hostNumber() + " is not in the server list " + serverHosts);
        }
        this.myIp = RackAddressing.hostIp(context.hostNumber());
        this.store = opener.open(context.durable().directory());
        this.ring = new ConsistentHashRing(serverHosts);
        context.log("distcache server h" + context.hostNumber() + " up (incarnation " + context.incarnation() + ")");
    }

    // ---- seams for seeded bugs (tests only override them) -----------------------------------------

    /** Phase 1 before applying (the protocol). False: the single-phase update the spec refutes. */
    protected boolean invalidatesBeforeApplying() {
        return true;
    }

    /** False (the protocol): phase 2 waits for the write to be applied. True: updates race the invalidations. */
    protected boolean updatesWithInvalidations() {
        return false;
    }

    // ---- packets ------------------------------------------------------------------------------------

    @Override
    public void onPacket(byte[] bytes) {
        InnetPacket packet = PacketPrologue.decodeOrDrop(bytes, f -> f.dstIp() == myIp && f.dstPort() == DcOp.PORT,
                () -> count("malformed"));
        if (packet == null) {
            return;
        }
        InnetMessage msg = packet.message();
        DcExt ext = DcExt.of(msg);
        if (ext == null) {
            count("malformed");
            return;
        }
        count("requests");
        UdpFrame frame = packet.frame();
        switch (msg.op()) {
            case KvOp.GET -> answerRead(frame, msg);
            case KvOp.PUT, KvOp.DEL -> acceptWrite(frame, msg);
            case DcOp.INV_ACK -> onInvalidationAck(msg, ext);
            case DcOp.FETCH -> acceptFetch(frame, msg, ext);
            default -> {
                if (!msg.isReply()) {
                    count("badOp");
                    send(frame.reply(reply(msg, msg.op() | InnetMessage.REPLY_BIT, KvStatus.BAD_OP, 0, 0, new byte[0])
                            .encode()));
                } else {
                    count("strayReplies");
                }
            }
        }
    }

    @Override
    public void onTimer(long timerId) {
        String keyHex = resendTimers.remove(timerId);
        if (keyHex == null) {
            return;
        }
        KeyState ks = keys.get(keyHex);
        if (ks == null || ks.current == null || ks.current.resendTimer != timerId) {
            return;
        }
        // ServerResendInv: an invalidation or its acknowledgement was lost (or the copy's switch is down)
        for (int layer : new int[] {DcOp.LAYER_UPPER, DcOp.LAYER_LOWER}) {
            if (!ks.current.acked.contains(layer)) {
                count("invalidationsResent");
                ctx.trace(TraceEvent.of(DistCacheTraceEvents.SERVER_RESEND_INV).with("key", keyHex).with("layer", layer)
                        .with("version", ks.current.record.seq()));
                sendInvalidation(ks.current.request.key(), layer, ks.current.record.seq());
            }
        }
        armResend(keyHex, ks.current);
    }

    private void answerRead(UdpFrame frame, InnetMessage msg) {
        if (!owns(msg.key())) {
            count("wrongPartition");
            send(frame.reply(reply(msg, KvOp.GET_REPLY, KvStatus.WRONG_PARTITION, 0, 0, new byte[0]).encode()));
            return;
        }
        // ServerGet: the primary copy
        Optional<StoredRecord> stored = store.get(msg.key());
        StoredRecord r = stored.orElse(StoredRecord.tombstone(0));
        ctx.trace(DistCacheTraceEvents.withRecord(TraceEvent.of(DistCacheTraceEvents.SERVER_GET)
                .with("client", RackAddressing.hostOfIp(frame.srcIp())).with("reqId", msg.reqId())
                .with("key", DistCacheTraceEvents.hex(msg.key())), r));
        int status = r.deleted() ? KvStatus.NOT_FOUND : KvStatus.OK;
        send(frame.reply(reply(msg, KvOp.GET_REPLY, status, r.deleted() ? KvOp.FLAG_DELETED : 0, r.seq(), r.value())
                .encode()));
    }

    private void acceptWrite(UdpFrame frame, InnetMessage msg) {
        if (!owns(msg.key())) {
            count("wrongPartition");
            send(frame.reply(reply(msg, KvOp.replyOf(msg.op()), KvStatus.WRONG_PARTITION, 0, 0, new byte[0]).encode()));
            return;
        }
        if (msg.op() == KvOp.PUT && msg.value().length > InnetMessage.MAX_VALUE_BYTES) {
            send(frame.reply(reply(msg, KvOp.PUT_REPLY, KvStatus.VALUE_TOO_LARGE, 0, 0, new byte[0]).encode()));
            return;
        }
        // At most once: a client's request ids only grow; a copy of its last write is answered again
        // (if done) or ignored (in progress), an older one is ignored.
        Long last = lastWriteOfClient.get(frame.srcIp());
        if (last != null && msg.reqId() <= last) {
            count("duplicateWrites");
            UdpFrame previous = lastReplyToClient.get(frame.srcIp());
            if (msg.reqId() == last && previous != null) {
                send(previous);
            }
            return;
        }
        lastWriteOfClient.put(frame.srcIp(), msg.reqId());
        lastReplyToClient.remove(frame.srcIp());
        enqueue(new Waiting(frame, msg, DcExt.NONE));
    }

    private void acceptFetch(UdpFrame frame, InnetMessage msg, DcExt ext) {
        if (!owns(msg.key()) || (ext.layer() != DcOp.LAYER_UPPER && ext.layer() != DcOp.LAYER_LOWER)
                || ext.node() == 0 || ext.token() == 0) {
            count("badFetch");
            return;
        }
        enqueue(new Waiting(frame, msg, ext));
    }

    private void enqueue(Waiting w) {
        String keyHex = HexFormat.of().formatHex(w.msg().key());
        KeyState ks = keys.computeIfAbsent(keyHex, k -> new KeyState());
        if (ks.current == null && ks.waiting.isEmpty()) {
            start(keyHex, ks, w);
            runWaiting(keyHex, ks);
            return;
        }
        if (ks.waiting.size() >= MAX_WAITING_PER_KEY) {
            count("queueFull");
            return;
        }
        if (w.msg().op() == DcOp.FETCH) {
            count("fetchesDeferred");
        }
        ks.waiting.add(w);
    }

    /** Starts the next waiting item while the key is idle; forgets the key once nothing is left. */
    private void runWaiting(String keyHex, KeyState ks) {
        while (ks.current == null && !ks.waiting.isEmpty()) {
            start(keyHex, ks, ks.waiting.poll());
        }
        if (ks.current == null) {
            keys.remove(keyHex);
        }
    }

    private void start(String keyHex, KeyState ks, Waiting w) {
        if (w.msg().op() == DcOp.FETCH) {
            // ServerFetch: the key is idle (no write in phase 1), so the fill is the current record
            count("fills");
            StoredRecord r = store.get(w.msg().key()).orElse(StoredRecord.tombstone(0));
            ctx.trace(DistCacheTraceEvents.withRecord(TraceEvent.of(DistCacheTraceEvents.SERVER_FETCH).with("key", keyHex)
                    .with("layer", w.ext().layer()).with("node", w.ext().node()).with("token", w.ext().token()), r));
            sendUpdate(w.msg().key(), w.ext().layer(), w.ext().node(), w.ext().token(), r);
            return;
        }
        beginWrite(keyHex, ks, w.frame(), w.msg());
    }

    private void beginWrite(String keyHex, KeyState ks, UdpFrame frame, InnetMessage msg) {
        count("writes");
        long version = store.get(msg.key()).map(StoredRecord::seq).orElse(0L) + 1;
        if (version > 0xffff_ffffL) {
            throw new IllegalStateException("key " + keyHex + " used up its 32-bit versions");
        }
        StoredRecord record = msg.op() == KvOp.DEL ? StoredRecord.tombstone(version)
                : StoredRecord.value(msg.value(), version);
        Write w = new Write(frame, msg, record);
        ctx.trace(DistCacheTraceEvents.withRecord(TraceEvent.of(DistCacheTraceEvents.SERVER_WRITE)
                .with("client", RackAddressing.hostOfIp(frame.srcIp())).with("reqId", msg.reqId()).with("key", keyHex)
                .with("phaseOne", invalidatesBeforeApplying()), record));
        if (!invalidatesBeforeApplying()) {
            complete(w);
            return;
        }
        // ServerWrite: phase 1
        ks.current = w;
        sendInvalidation(msg.key(), DcOp.LAYER_UPPER, version);
        sendInvalidation(msg.key(), DcOp.LAYER_LOWER, version);
        if (updatesWithInvalidations()) {
            sendUpdates(msg.key(), record);
        }
        armResend(keyHex, w);
    }

    private void onInvalidationAck(InnetMessage msg, DcExt ext) {
        String keyHex = HexFormat.of().formatHex(msg.key());
        KeyState ks = keys.get(keyHex);
        TraceEvent traced = TraceEvent.of(DistCacheTraceEvents.SERVER_INV_ACK).with("key", keyHex)
                .with("layer", ext.layer()).with("version", msg.seq());
        if (ks == null || ks.current == null || msg.seq() != ks.current.record.seq()
                || (ext.layer() != DcOp.LAYER_UPPER && ext.layer() != DcOp.LAYER_LOWER)) {
            count("staleAcks");   // an old or duplicated acknowledgement
            ctx.trace(traced.with("outcome", DistCacheTraceEvents.ACK_STALE));
            return;
        }
        count("invalidationAcks");
        ks.current.acked.add(ext.layer());
        ctx.trace(traced.with("outcome", ks.current.acked.size() == 2 ? DistCacheTraceEvents.ACK_APPLIED
                : DistCacheTraceEvents.ACK_COUNTED));
        if (ks.current.acked.size() == 2) {
            // ServerInvAck, the last one: every copy is invalid
            Write w = ks.current;
            ks.current = null;
            ctx.timers().cancel(w.resendTimer);
            resendTimers.remove(w.resendTimer);
            complete(w);
            runWaiting(keyHex, ks);
        }
    }

    /** Apply, acknowledge the client, then phase 2. */
    private void complete(Write w) {
        store.apply(w.request.key(), w.record, RecordStore.Ordering.ARRIVAL);
        UdpFrame ack = w.clientFrame.reply(reply(w.request, KvOp.replyOf(w.request.op()), KvStatus.OK, 0,
                w.record.seq(), new byte[0]).encode());
        if (Long.valueOf(w.request.reqId()).equals(lastWriteOfClient.get(w.clientFrame.srcIp()))) {
            lastReplyToClient.put(w.clientFrame.srcIp(), ack);
        }
        send(ack);
        if (!updatesWithInvalidations()) {
            sendUpdates(w.request.key(), w.record);
        }
    }

    private void armResend(String keyHex, Write w) {
        w.resendTimer = ctx.timers().schedule(resendNanos);
        resendTimers.put(w.resendTimer, keyHex);
    }

    // ---- messages to the copies ---------------------------------------------------------------------

    private void sendInvalidation(byte[] key, int layer, long version) {
        count("invalidationsSent");
        InnetMessage inv = DcExt.message(DcOp.INV, 0, 0, nextReqId(), key, version, DcExt.target(layer, 0, 0),
                new byte[0]);
        send(toSwitches(inv));
    }

    private void sendUpdates(byte[] key, StoredRecord record) {
        sendUpdate(key, DcOp.LAYER_UPPER, 0, 0, record);
        sendUpdate(key, DcOp.LAYER_LOWER, 0, 0, record);
    }

    private void sendUpdate(byte[] key, int layer, int node, long token, StoredRecord record) {
        count("updatesSent");
        InnetMessage upd = DcExt.message(DcOp.UPD, record.deleted() ? KvOp.FLAG_DELETED : 0,
                record.deleted() ? KvStatus.NOT_FOUND : KvStatus.OK, nextReqId(), key, record.seq(),
                DcExt.target(layer, node, token), record.deleted() ? new byte[0] : record.value());
        send(toSwitches(upd));
    }

    /** Coherence messages are addressed to 10.0.0.254 ("the switch", which has no address); switches route them by node. */
    private UdpFrame toSwitches(InnetMessage msg) {
        int cpu = RackAddressing.CPU_HOST;
        return new UdpFrame(RackAddressing.hostMac(cpu), RackAddressing.hostMac(ctx.hostNumber()), myIp,
                RackAddressing.hostIp(cpu), DcOp.PORT, DcOp.PORT, msg.encode());
    }

    private long nextReqId() {
        long id = nextReqId;
        nextReqId = nextReqId == 0xffff_ffffL ? 1 : nextReqId + 1;
        return id;
    }

    private static InnetMessage reply(InnetMessage request, int op, int status, int flags, long seq, byte[] value) {
        return DcExt.message(op, flags, status, request.reqId(), request.key(), seq, DcExt.NONE, value);
    }

    private void send(UdpFrame frame) {
        ctx.network().send(frame);
    }

    private boolean owns(byte[] key) {
        return ring.ownerOf(key) == ctx.hostNumber();
    }

    private void count(String name) {
        counters.merge(name, 1L, Long::sum);
    }

    /**
     * The write of a key in phase 1, as a driver that steps the server by hand sees it (the spec
     * replay's {@code cur[k]} and {@code acked[k]}): the record it will apply, the writing client's
     * address, the layers that acknowledged its invalidation, and the timer that resends the others.
     */
    public record PhaseOne(StoredRecord record, int clientIp, java.util.Set<Integer> ackedLayers, long resendTimer) {}

    /** The key's write in phase 1, or empty while the server is idle for the key. */
    public Optional<PhaseOne> phaseOne(byte[] key) {
        KeyState ks = keys.get(HexFormat.of().formatHex(key));
        if (ks == null || ks.current == null) {
            return Optional.empty();
        }
        Write w = ks.current;
        return Optional.of(new PhaseOne(w.record, w.clientFrame.srcIp(), java.util.Set.copyOf(w.acked), w.resendTimer));
    }

    /** For tests: the stored record of a key. */
    public Optional<StoredRecord> storedRecord(byte[] key) {
        return store.get(key);
    }

    @Override
    public Map<String, Long> counters() {
        return new TreeMap<>(counters);
    }
}
