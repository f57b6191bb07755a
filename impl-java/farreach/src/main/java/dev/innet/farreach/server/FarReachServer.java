package dev.innet.farreach.server;

import dev.innet.kv.KvTraceFields;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.server.ServerConfig;
import dev.innet.kv.server.StorageServer;
import dev.innet.kv.store.RecordStore;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.kv.store.StoredRecord;
import dev.innet.farreach.trace.FarReachTraceEvents;
import dev.innet.sim.TraceEvent;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.InnetMessage;
import dev.innet.sim.NodeContext;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;

/**
 * FarReach's storage server (§3.2-3.3): the family's server (numbered writes keep the higher sequence
 * number) plus FarReach's duties: resolve a record the switch embedded into a read against its own
 * (record embedding), store records the controller evicts or replays in recovery, and keep recovery's
 * sequence fence ({@link FencedRecordStore}).
 */
public class FarReachServer extends StorageServer {
    /** Durable key of the sequence fence (recovery's SEQ_FENCE): it must survive a server restart. */
    static final String DURABLE_FENCE = "seq-fence";

    private final FencingOpener fencing;
    private long embeddedRecordsApplied;

    public FarReachServer(ServerConfig config, RecordStoreOpener opener) {
        this(config, new FencingOpener(opener));
    }

    private FarReachServer(ServerConfig config, FencingOpener fencing) {
        super(config, fencing);
        this.fencing = fencing;
    }

    /** Wraps every store the server opens in the fence, and keeps the one this incarnation opened. */
    private static final class FencingOpener implements RecordStoreOpener {
        private final RecordStoreOpener inner;
        private FencedRecordStore opened;

        FencingOpener(RecordStoreOpener inner) {
            this.inner = inner;
        }

        @Override
        public RecordStore open(Path durableDirectory) {
            opened = new FencedRecordStore(inner.open(durableDirectory));
            return opened;
        }
    }

    @Override
    public void onStart(NodeContext context) {
        super.onStart(context);
        context.durable().get(DURABLE_FENCE).ifPresent(b -> fencing.opened.raise(ByteBuffer.wrap(b).getLong()));
    }

    /** The sequence fence recovery set (0: none yet). */
    public long fence() {
        return fencing.opened == null ? 0 : fencing.opened.fence();
    }

    @Override
    protected InnetMessage handleProtocolOp(InnetMessage msg) {
        if (msg.op() != KvOp.GET_EMBED) {
            return badOp(msg);
        }
        // Record embedding (§3.3): the switch's record may be newer than ours (a write it absorbed before
        // eviction started); keep whichever is newer, then answer from the result.
        if (applyNumbered(msg.key(), StoredRecord.carriedBy(msg)) == RecordStore.Applied.STORED) {
            embeddedRecordsApplied++;
        }
        return readReply(msg, KvOp.GET_REPLY);
    }

    @Override
    protected InnetMessage handleControl(InnetMessage msg) {
        if (msg.op() == KvOp.SEQ_FENCE) {
            return fence(msg);
        }
        if (msg.op() == KvOp.SEQ_PROBE) {
            return seqProbe(msg);
        }
        if (msg.op() != KvOp.EVICT_STORE && msg.op() != KvOp.RECOVER_STORE) {
            return badOp(msg);
        }
        if (!ownsKey(msg.key())) {
            return wrongPartition(msg);
        }
        applyNumbered(msg.key(), StoredRecord.carriedBy(msg));
        return msg.reply(KvStatus.OK, msg.seq(), new byte[0]);
    }

    /**
     * Recovery's SEQ_FENCE (the restarted switch's sequence base in {@code seq}): raised durably before it
     * is acknowledged, since a restarted server that forgot it would take a late write of the crashed
     * switch again. The reply carries the fence now held, which a duplicate of an older recovery's
     * fence does not lower.
     */
    private InnetMessage fence(InnetMessage msg) {
        FencedRecordStore store = fencing.opened;
        if (msg.seq() > store.fence()) {
            context().durable().put(DURABLE_FENCE, ByteBuffer.allocate(8).putLong(msg.seq()).array());
            context().durable().sync();
            store.raise(msg.seq());
            context().log("fenced at seq " + msg.seq() + ": records numbered below it are refused");
        }
        return msg.reply(KvStatus.OK, store.fence(), new byte[0]);
    }

    /**
     * Trace events (docs/conformance.md) for the spec's ServerPut, ServerGet, ServerEvict and recovery's
     * store: what arrived and what the server holds afterwards. Error replies (wrong partition, bad op)
     * are not protocol steps and emit nothing.
     */
    @Override
    protected void afterRequest(UdpFrame frame, InnetMessage request, InnetMessage reply) {
        if (reply.status() != KvStatus.OK && reply.status() != KvStatus.NOT_FOUND) {
            return;
        }
        String key = KvTraceFields.key(request.key());
        TraceEvent e;
        switch (request.op()) {
            case KvOp.PUT_SEQ, KvOp.DEL_SEQ -> {
                e = TraceEvent.of(FarReachTraceEvents.SERVER_PUT).with("client", RackAddressing.hostOfIp(frame.srcIp()))
                        .with("reqId", request.reqId()).with("key", key);
                KvTraceFields.withRecord(e, "rec", StoredRecord.carriedBy(request));
            }
            case KvOp.GET, KvOp.GET_FOR_CACHE, KvOp.GET_EMBED -> {
                e = TraceEvent.of(FarReachTraceEvents.SERVER_GET).with("client", RackAddressing.hostOfIp(frame.srcIp()))
                        .with("reqId", request.reqId()).with("key", key).with("op", KvOp.name(request.op()));
                if (reply.status() == KvStatus.OK || (reply.flags() & KvOp.FLAG_DELETED) != 0) {
                    KvTraceFields.withRecord(e, "reply", StoredRecord.carriedBy(reply));
                } else {
                    KvTraceFields.withNoRecord(e, "reply");
                }
            }
            case KvOp.SEQ_PROBE -> {
                context().trace(TraceEvent.of(FarReachTraceEvents.SERVER_PROBE).with("key", key)
                        .with("reqId", request.reqId()).with("seq", reply.seq()));
                return;
            }
            case KvOp.EVICT_STORE, KvOp.RECOVER_STORE -> {
                e = TraceEvent.of(request.op() == KvOp.EVICT_STORE ? FarReachTraceEvents.SERVER_EVICT_STORE
                        : FarReachTraceEvents.SERVER_RECOVER_STORE).with("key", key);
                KvTraceFields.withRecord(e, "rec", StoredRecord.carriedBy(request));
            }
            default -> {
                return;
            }
        }
        var stored = storedRecord(request.key());
        if (stored.isPresent()) {
            KvTraceFields.withRecord(e, "stored", stored.get());
        } else {
            KvTraceFields.withNoRecord(e, "stored");
        }
        context().trace(e);
    }

    /** Embedded records that were newer than the server's own (for reports and tests). */
    public long embeddedRecordsApplied() {
        return embeddedRecordsApplied;
    }

    @Override
    public Map<String, Long> counters() {
        Map<String, Long> c = super.counters();
        c.put("embeddedRecordsApplied", embeddedRecordsApplied);
        c.put("seqFence", fence());
        return c;
    }
}
