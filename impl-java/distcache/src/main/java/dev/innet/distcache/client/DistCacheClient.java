package dev.innet.distcache.client;

import dev.innet.distcache.DistCacheTraceEvents;
import dev.innet.distcache.wire.DcExt;
import dev.innet.distcache.wire.DcOp;
import dev.innet.kv.client.ClientConfig;
import dev.innet.kv.client.KvClient;
import dev.innet.sim.NodeContext;
import dev.innet.sim.TraceEvent;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.wire.InnetMessage;

/**
 * The DistCache client library (§4.1 "Clients"): the family's client (one operation outstanding,
 * timeouts, request ids unique across restarts, histories) speaking DistCache's port and extension.
 * Requests go to the key's storage server; the client's ToR routes reads to a cache switch on the way
 * (the client does not choose). Reads are retried; writes are not (a retry would be a second write,
 * as in the key-value family). Spec actions: ClientWrite, ClientReadHit / ClientReadMiss (the switch
 * decides which), ClientGiveUp.
 */
public class DistCacheClient extends KvClient {
    /** UDP source port of requests; replies come back to it. */
    public static final int SOURCE_PORT = 40012;

    public DistCacheClient(NodeContext ctx, ClientConfig config, HistoryRecorder history) {
        super(ctx, config, history);
    }

    @Override
    protected int serverPort() {
        return DcOp.PORT;
    }

    /** A retransmission ends the previous attempt in the spec's terms (ClientGiveUp, then a new read). */
    @Override
    protected void onRequestSent(InnetMessage request, int attempt) {
        if (attempt > 1) {
            traceTimeout(request, attempt - 1);
        }
    }

    @Override
    protected void onGaveUp(InnetMessage request) {
        traceTimeout(request, 0);
    }

    /** @param attempt the attempt that timed out, 0 for the last one (the operation is abandoned) */
    private void traceTimeout(InnetMessage request, int attempt) {
        ctx.trace(TraceEvent.of(DistCacheTraceEvents.CLIENT_TIMEOUT).with("reqId", request.reqId()).with("attempt", attempt));
    }

    /** An unrouted request (layer 0): the client ToR picks the cache node. */
    @Override
    protected InnetMessage newRequest(int op, long reqId, byte[] key, byte[] value) {
        return DcExt.message(op, 0, 0, reqId, key, 0, DcExt.NONE, value);
    }
}
