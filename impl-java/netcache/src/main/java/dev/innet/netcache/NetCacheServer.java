package dev.innet.netcache;

import dev.innet.kv.KvTraceFields;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.server.ServerConfig;
import dev.innet.kv.server.StorageServer;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.kv.store.StoredRecord;
import dev.innet.netcache.trace.NetCacheTraceEvents;
import dev.innet.sim.TraceEvent;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;

/**
 * NetCache's storage server: the family's server (numbered writes keep the higher sequence number; an
 * admission's SEQ_PROBE answered by {@link StorageServer#seqProbe}), plus the trace events of the spec's
 * ServerPut, ServerGet and ServerProbe: what arrived, what was answered and what the
 * server holds afterwards. Not final: tests inject seeded bugs as subclasses.
 */
public class NetCacheServer extends StorageServer {
    public NetCacheServer(ServerConfig config, RecordStoreOpener opener) {
        super(config, opener);
    }

    /** Error replies (wrong partition, bad op) are not protocol steps and emit nothing. */
    @Override
    protected void afterRequest(UdpFrame frame, InnetMessage request, InnetMessage reply) {
        if (reply.status() != KvStatus.OK && reply.status() != KvStatus.NOT_FOUND) {
            return;
        }
        TraceEvent e;
        switch (request.op()) {
            case KvOp.PUT_SEQ, KvOp.DEL_SEQ -> {
                e = TraceEvent.of(NetCacheTraceEvents.SERVER_PUT);
                requestFields(e, frame, request);
                KvTraceFields.withRecord(e, "rec", StoredRecord.carriedBy(request));
            }
            case KvOp.SEQ_PROBE -> {
                context().trace(TraceEvent.of(NetCacheTraceEvents.SERVER_PROBE)
                        .with("key", KvTraceFields.key(request.key())).with("reqId", request.reqId())
                        .with("seq", reply.seq()));
                return;
            }
            case KvOp.GET, KvOp.GET_FOR_CACHE -> {
                e = TraceEvent.of(NetCacheTraceEvents.SERVER_GET);
                requestFields(e, frame, request).with("op", KvOp.name(request.op()));
                if (reply.status() == KvStatus.OK || (reply.flags() & KvOp.FLAG_DELETED) != 0) {
                    KvTraceFields.withRecord(e, "reply", StoredRecord.carriedBy(reply));
                } else {
                    KvTraceFields.withNoRecord(e, "reply");
                }
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

    private static TraceEvent requestFields(TraceEvent e, UdpFrame frame, InnetMessage request) {
        return e.with("client", RackAddressing.hostOfIp(frame.srcIp())).with("reqId", request.reqId())
                .with("key", KvTraceFields.key(request.key()));
    }
}
