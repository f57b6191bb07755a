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
import java.util.Map;

/**
 * FarReach's storage server (§3.2-3.3): the family's server (numbered writes keep the higher sequence
 * number) plus FarReach's duties: resolve a record the switch embedded into a read against its own
 * (record embedding), and store records the controller evicts or replays in recovery.
 */
public class FarReachServer extends StorageServer {
    private long embeddedRecordsApplied;

    public FarReachServer(ServerConfig config, RecordStoreOpener opener) {
        super(config, opener);
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
        return c;
    }
}
