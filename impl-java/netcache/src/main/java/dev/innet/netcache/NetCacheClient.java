package dev.innet.netcache;

import dev.innet.kv.KvTraceFields;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.client.ClientConfig;
import dev.innet.kv.client.KvClient;
import dev.innet.netcache.trace.NetCacheTraceEvents;
import dev.innet.sim.NodeContext;
import dev.innet.sim.TraceEvent;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.wire.InnetMessage;

/**
 * NetCache's client: the family's client, plus the trace events of the spec's client actions and of
 * the switch's reply steps (NetCacheTraceEvents). Behaviour is the family client's.
 */
public final class NetCacheClient extends KvClient {
    public NetCacheClient(NodeContext ctx, ClientConfig config, HistoryRecorder history) {
        super(ctx, config, history);
    }

    @Override
    protected void onRequestSent(InnetMessage request, int attempt) {
        boolean read = request.op() == KvOp.GET;
        TraceEvent e = TraceEvent.of(read ? NetCacheTraceEvents.CLIENT_READ : NetCacheTraceEvents.CLIENT_WRITE)
                .with("key", KvTraceFields.key(request.key()));
        if (request.op() == KvOp.PUT) {
            e.with("value", KvTraceFields.text(request.value()));
        } else if (request.op() == KvOp.DEL) {
            e.with("value", "").with("delete", true);
        }
        ctx.trace(e.with("reqId", request.reqId()).with("attempt", attempt));
    }

    @Override
    protected void onReplyAccepted(InnetMessage request, InnetMessage reply) {
        ctx.trace(reply(TraceEvent.of(NetCacheTraceEvents.CLIENT_REPLY), reply)
                .with("fromSwitch", (reply.flags() & KvOp.FLAG_FROM_SWITCH) != 0));
    }

    @Override
    protected void onReplyIgnored(InnetMessage reply) {
        if (reply.op() == KvOp.PUT_REPLY || reply.op() == KvOp.GET_REPLY || reply.op() == KvOp.GET_FOR_CACHE_REPLY) {
            ctx.trace(reply(TraceEvent.of(NetCacheTraceEvents.CLIENT_STALE_REPLY), reply));
        }
    }

    @Override
    protected void onGaveUp(InnetMessage request) {
        ctx.trace(TraceEvent.of(NetCacheTraceEvents.CLIENT_GAVE_UP).with("op", request.op() == KvOp.GET ? "read" : "write")
                .with("key", KvTraceFields.key(request.key())).with("reqId", request.reqId()));
    }

    private static TraceEvent reply(TraceEvent e, InnetMessage reply) {
        boolean read = reply.op() != KvOp.PUT_REPLY && reply.op() != KvOp.DEL_REPLY;
        String status = switch (reply.status()) {
            case KvStatus.OK -> "ok";
            case KvStatus.NOT_FOUND -> "notFound";
            default -> "failed";
        };
        return e.with("op", read ? "read" : "write").with("key", KvTraceFields.key(reply.key()))
                .with("reqId", reply.reqId()).with("status", status).with("seq", reply.seq())
                .with("value", read && reply.status() == KvStatus.OK ? KvTraceFields.text(reply.value()) : "");
    }
}
