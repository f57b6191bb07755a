package dev.innet.visibility.metadata;

import dev.innet.kv.PacketPrologue;
import dev.innet.protocol.NodeCounters;
import dev.innet.protocol.RackPorts;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.visibility.RackRoles;
import dev.innet.visibility.VisApplication;
import dev.innet.visibility.VisibilityTraceEvents;
import dev.innet.wire.RackAddressing;
import dev.innet.visibility.TimerActions;
import dev.innet.visibility.wire.IndexRecord;
import dev.innet.visibility.wire.LogAddress;
import dev.innet.visibility.wire.VisExt;
import dev.innet.visibility.wire.VisFrames;
import dev.innet.visibility.wire.VisOp;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.UdpFrame;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The metadata node (§II-B, §III-A, §III-D, §III-E). Critical-path requests are served at once: reads
 * of a key's metadata, and the ordered second phase of writes that fell back. Asynchronous updates (the
 * switch's copies of installed writes) are deferred and applied in sorted, combined batches; each
 * applied update asks the switch to clear its entry by timestamp, re-sent until acknowledged (§III-E 1).
 * A second-phase reply the switch held back comes back as META_HELD and is re-sent until the entry
 * clears (§III-B 1).
 *
 * <p>Recovery: every start rebuilds the index from the data nodes' logs (§III-E 2), and a RESYNC from
 * the switch OS after a switch crash drains the buffer and does the same before answering (§III-E 3).
 * While rebuilding, reads are answered UNAVAILABLE (the client retries).
 */
public class MetadataNode implements Node, NodeCounters {
    private final RackRoles roles;
    private final VisApplication application;
    private final int batchCapacity;
    private final long idleNanos;
    private final long heldRetryNanos;
    private NodeContext ctx;
    private TimerActions timers;
    private final MetadataIndex index = new MetadataIndex();
    private DeferredBatch deferred;
    private long batchTimer = -1;
    /** clears sent and not acknowledged, by (slot, ts) */
    private final Map<Long, Long> clearTimers = new HashMap<>();

    private Rebuild rebuild;
    private long rebuildRound;
    private UdpFrame resyncRequester;
    private long resyncReqId;

    private final Map<String, Long> counts = new HashMap<>();

    /** One round of asking every data node for its newest entries. */
    private final class Rebuild {
        final long round;
        final Map<Integer, Long> received = new HashMap<>();
        final Map<Integer, Long> expected = new HashMap<>();
        final long timer;

        Rebuild(long round) {
            this.round = round;
            for (int dn : roles.dataNodes()) {
                InnetMessage ask = VisFrames.message(VisOp.REBUILD, 0, 0, round, new byte[InnetMessage.KEY_BYTES], 0,
                        new VisExt(0, 0), new byte[0]);
                ctx.network().send(VisFrames.serverToServer(ctx.hostNumber(), dn, ask));
                received.put(dn, 0L);
            }
            timer = timers.after(roles.timeoutNanos(), MetadataNode.this::startRebuild);
        }

        boolean complete() {
            return expected.size() == roles.dataNodes().size()
                    && expected.entrySet().stream().allMatch(e -> received.get(e.getKey()).equals(e.getValue()));
        }
    }

    /**
     * The rack's metadata node for {@code application}: a buffer of 16 deferred updates, batches applied when
     * idle for a fiftieth of the timeout, held replies re-sent every 25th (10 us and 20 us at the paper's
     * 500 us; a live rack's longer timeout stretches both).
     */
    public static MetadataNode withPaperSettings(RackRoles roles, VisApplication application) {
        return new MetadataNode(roles, 16, roles.timeoutNanos() / 50, roles.timeoutNanos() / 25, application);
    }

    /** A metadata node of the key-value store. */
    public MetadataNode(RackRoles roles, int batchCapacity, long idleNanos, long heldRetryNanos) {
        this(roles, batchCapacity, idleNanos, heldRetryNanos, VisApplication.KEY_VALUE);
    }

    public MetadataNode(RackRoles roles, int batchCapacity, long idleNanos, long heldRetryNanos, VisApplication application) {
        this.application = application;
        this.roles = roles;
        this.batchCapacity = batchCapacity;
        this.idleNanos = idleNanos;
        this.heldRetryNanos = heldRetryNanos;
    }

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        this.timers = new TimerActions(context);
        this.deferred = new DeferredBatch(batchCapacity);
        // the trace names the rebuild's start: after a crash (incarnation above 0) the index it begins from is empty
        ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.MDN_REBUILD_START).with("cause", "start")
                .with("round", rebuildRound + 1));
        startRebuild();
    }

    private void count(String name) {
        counts.merge(name, 1L, Long::sum);
    }

    private void startRebuild() {
        if (rebuild != null) {
            timers.cancel(rebuild.timer);
            count("rebuildRetries");
        }
        rebuild = new Rebuild(++rebuildRound);
    }

    @Override
    public void onPacket(byte[] bytes) {
        InnetPacket packet = PacketPrologue.decodeOrDrop(bytes, f -> f.dstPort() == VisOp.PORT, () -> count("malformed"));
        if (packet == null) {
            return;
        }
        InnetMessage m = packet.message();
        VisExt ext = VisExt.decodeOrNull(m.ext());
        if (ext == null) {
            count("malformed");
            return;
        }
        switch (m.op()) {
            case VisOp.READ -> read(packet.frame(), m, ext);
            case VisOp.META_UPDATE -> secondPhase(packet.frame(), m, ext);
            case VisOp.META_HELD -> resendHeld(packet.frame(), m);
            case VisOp.META_ASYNC -> defer(m, ext);
            case VisOp.CLEAR_ACK -> {
                ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.MDN_CLEAR_ACK)
                        .with("key", VisibilityTraceEvents.hex(m.key())).with("ts", m.seq()));
                clearAcknowledged(ext, m.seq());
            }
            case VisOp.REBUILD_ENTRIES, VisOp.REBUILD_END -> rebuildReply(packet.frame(), m);
            case VisOp.RESYNC -> resync(packet.frame(), m);
            default -> count("unexpected");
        }
    }

    @Override
    public void onTimer(long timerId) {
        timers.fire(timerId);
    }

    /** The update a message carries (its metadata: a log address and the application's tail), or null. */
    private IndexRecord recordOf(InnetMessage m, VisExt ext) {
        byte[] tail = IndexRecord.tailOrNull(m.value());
        if (tail == null || !application.validTail(tail)) {
            return null;
        }
        return new IndexRecord(m.key(), m.seq(), ext, LogAddress.decodeOrNull(java.util.Arrays.copyOf(m.value(), LogAddress.BYTES)),
                tail);
    }

    /**
     * Applies an update to the index if it supersedes what the index holds: a newer timestamp (updates arrive
     * out of order, so each is idempotent, §III-E 1). Seeded-bug tests override {@link #supersedes}.
     */
    private void apply(IndexRecord r) {
        index.applyIf(r, this::supersedes);
    }

    /** Whether {@code update} replaces {@code held}, the key's entry in the index. */
    protected boolean supersedes(IndexRecord update, IndexRecord held) {
        return update.ts() > held.ts();
    }

    private void read(UdpFrame frame, InnetMessage m, VisExt ext) {
        if (rebuild != null) {
            reply(frame, m, ext, VisOp.STATUS_UNAVAILABLE, 0, new byte[0]);
            return;
        }
        count("reads");
        IndexRecord r = index.get(m.key());
        ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.MDN_READ).with("client", RackAddressing.hostOfIp(frame.srcIp()))
                .with("reqId", m.reqId()).with("key", VisibilityTraceEvents.hex(m.key())).with("found", r != null)
                .with("dataNode", r == null ? 0 : r.address().dataNode()).with("position", r == null ? 0 : r.address().position()));
        if (r == null) {
            reply(frame, m, ext, VisOp.STATUS_NOT_FOUND, 0, new byte[0]);
        } else {
            reply(frame, m, ext, VisOp.STATUS_OK, r.ts(), r.metadata());
        }
    }

    /** The ordered second phase (§II-B): on the critical path, so applied at once. */
    private void secondPhase(UdpFrame frame, InnetMessage m, VisExt ext) {
        IndexRecord r = recordOf(m, ext);
        if (r == null) {
            count("malformed");
            reply(frame, m, ext, VisOp.STATUS_BAD_REQUEST, 0, new byte[0]);
            return;
        }
        count("secondPhases");
        ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.MDN_UPDATE).with("client", RackAddressing.hostOfIp(frame.srcIp()))
                .with("reqId", m.reqId()).with("key", VisibilityTraceEvents.hex(m.key())).with("ts", r.ts())
                .with("dataNode", r.address().dataNode()).with("position", r.address().position()));
        apply(r);
        reply(frame, m, ext, VisOp.STATUS_OK, r.ts(), m.value());
    }

    /** §III-B 1: "allows the metadata node to re-send this reply until the metadata entry is cleared". */
    private void resendHeld(UdpFrame held, InnetMessage m) {
        count("held");
        InnetMessage again = new InnetMessage(VisOp.META_UPDATE_REPLY, 0, VisOp.STATUS_OK, m.reqId(), m.key(), m.seq(),
                m.ext(), m.value());
        UdpFrame toClient = held.reply(again.encode());
        timers.after(heldRetryNanos, () -> ctx.network().send(toClient));
    }

    private void defer(InnetMessage m, VisExt ext) {
        IndexRecord r = recordOf(m, ext);
        if (r == null) {
            count("malformed");
            return;
        }
        count("asyncUpdates");
        ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.MDN_DEFER).with("key", VisibilityTraceEvents.hex(m.key()))
                .with("ts", r.ts()).with("dataNode", r.address().dataNode()).with("position", r.address().position()));
        deferred.add(r);
        if (deferred.full()) {
            applyBatch();
        } else if (batchTimer < 0) {
            batchTimer = timers.after(idleNanos, this::applyBatch);
        }
    }

    /** §III-D: the deferred updates as one sorted, combined batch; then step 5, a clear per update. */
    private void applyBatch() {
        if (batchTimer >= 0) {
            timers.cancel(batchTimer);
            batchTimer = -1;
        }
        if (deferred.isEmpty()) {
            return;
        }
        DeferredBatch.Drained batch = deferred.drain();
        ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.MDN_BATCH).with("updates", batch.all().size()));
        count("batches");
        counts.merge("combinedAway", (long) (batch.all().size() - batch.combined().size()), Long::sum);
        for (IndexRecord r : batch.combined()) {
            apply(r);
        }
        for (IndexRecord r : batch.all()) {
            sendClear(r.key(), r.ext(), r.ts());
        }
    }

    private static long clearId(VisExt ext, long ts) {
        return ((long) ext.index() << 32) | ts;
    }

    private void sendClear(byte[] key, VisExt ext, long ts) {
        long id = clearId(ext, ts);
        Long old = clearTimers.remove(id);
        if (old != null) {
            timers.cancel(old);
        }
        InnetMessage clear = VisFrames.message(VisOp.CLEAR, 0, 0, ts, key, ts, ext, new byte[0]);
        ctx.network().send(VisFrames.serverToServer(ctx.hostNumber(), RackPorts.CONTROLLER_HOST, clear));
        count("clears");
        clearTimers.put(id, timers.after(roles.timeoutNanos(), () -> {
            clearTimers.remove(id);
            count("clearRetries");
            ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.MDN_CLEAR_RESEND)
                    .with("key", VisibilityTraceEvents.hex(key)).with("ts", ts));
            sendClear(key, ext, ts);
        }));
    }

    private void clearAcknowledged(VisExt ext, long ts) {
        Long timer = clearTimers.remove(clearId(ext, ts));
        if (timer != null) {
            timers.cancel(timer);
        }
    }

    private void rebuildReply(UdpFrame frame, InnetMessage m) {
        int dn = dev.innet.wire.RackAddressing.hostOfIp(frame.srcIp());
        if (rebuild == null || m.reqId() != rebuild.round || !rebuild.received.containsKey(dn)) {
            count("staleRebuildReplies");
            return;
        }
        if (m.op() == VisOp.REBUILD_END) {
            rebuild.expected.put(dn, m.seq());
        } else {
            List<IndexRecord> records = IndexRecord.unpackOrNull(m.value());
            if (records == null) {
                count("malformed");
                return;
            }
            for (IndexRecord r : records) {
                ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.MDN_REBUILD_RECORD)
                        .with("key", VisibilityTraceEvents.hex(r.key())).with("ts", r.ts())
                        .with("dataNode", r.address().dataNode()).with("position", r.address().position()));
                apply(r);
            }
            rebuild.received.merge(dn, (long) records.size(), Long::sum);
        }
        if (rebuild.complete()) {
            timers.cancel(rebuild.timer);
            rebuild = null;
            count("rebuilds");
            ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.MDN_REBUILT).with("keys", (long) index.size()));
            ctx.log("index rebuilt from the data nodes: " + index.size() + " keys");
            if (resyncRequester != null) {
                InnetMessage done = VisFrames.message(VisOp.RESYNC_DONE, 0, VisOp.STATUS_OK, resyncReqId,
                        new byte[InnetMessage.KEY_BYTES], 0, new VisExt(0, 0), new byte[0]);
                ctx.network().send(resyncRequester.reply(done.encode()));
                resyncRequester = null;
            }
        }
    }

    /**
     * §III-E 3: "all metadata nodes pause and drain their existing request queues. Then ... perform a
     * synchronization step with all data nodes". Pending clears are dropped: the switch lost its entries.
     */
    private void resync(UdpFrame frame, InnetMessage m) {
        count("resyncs");
        applyBatch();
        for (long timer : clearTimers.values()) {
            timers.cancel(timer);
        }
        clearTimers.clear();
        resyncRequester = frame;
        resyncReqId = m.reqId();
        ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.MDN_REBUILD_START).with("cause", "resync")
                .with("round", rebuildRound + 1));
        startRebuild();
    }

    private void reply(UdpFrame frame, InnetMessage m, VisExt ext, int status, long ts, byte[] value) {
        InnetMessage r = VisFrames.message(m.op() | InnetMessage.REPLY_BIT, 0, status, m.reqId(), m.key(), ts, ext, value);
        ctx.network().send(frame.reply(r.encode()));
    }

    // ---- read-only views for observers (the conformance replay maps them to the spec's idx, deferred
    // and pendClr, and fires the timers behind the spec's MdnBatch and MdnClearTimeout)

    /** The index, in key order. */
    public List<IndexRecord> indexRecords() {
        return index.records();
    }

    /** The asynchronous updates deferred and not yet applied. */
    public List<IndexRecord> deferredUpdates() {
        return deferred.pending();
    }

    /** The timer that applies the deferred batch (the node is idle), or -1 while nothing waits. */
    public long batchTimer() {
        return batchTimer;
    }

    /** A clear sent and not yet acknowledged: the switch slot and the timestamp it names. */
    public record PendingClear(int slot, long ts) {}

    /** The clears sent and not acknowledged (each re-sent when its timer fires). */
    public List<PendingClear> pendingClears() {
        return clearTimers.keySet().stream().sorted().map(id -> new PendingClear((int) (id >>> 32), id & 0xffff_ffffL))
                .toList();
    }

    /** The timer that re-sends the clear of ({@code slot}, {@code ts}), or -1 if it is acknowledged or was never sent. */
    public long clearTimer(int slot, long ts) {
        return clearTimers.getOrDefault(clearId(new VisExt(slot, 0), ts), -1L);
    }

    @Override
    public Map<String, Long> counters() {
        Map<String, Long> c = new HashMap<>(counts);
        c.put("requests", counts.getOrDefault("reads", 0L) + counts.getOrDefault("secondPhases", 0L));
        c.put("indexedKeys", (long) index.size());
        return c;
    }
}
