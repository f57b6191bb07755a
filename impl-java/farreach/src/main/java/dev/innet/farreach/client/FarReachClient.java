package dev.innet.farreach.client;

import dev.innet.kv.KvTraceFields;
import dev.innet.farreach.trace.FarReachTraceEvents;
import dev.innet.farreach.wire.SnapshotCoverage;
import dev.innet.kv.KvOp;
import dev.innet.kv.client.ClientConfig;
import dev.innet.kv.client.KvClient;
import dev.innet.kv.KvStatus;
import dev.innet.sim.NodeContext;
import dev.innet.sim.TraceEvent;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;

/**
 * FarReach's client library: the family's client plus record preservation (§3.4). The newest (value,
 * seq) of every write the switch answered is kept until a snapshot (or an eviction's server store)
 * covers it, so that a switch crash cannot lose it; recovery collects these records. Volatile on
 * purpose: a client crash loses them, which is the protocol's documented limitation.
 */
public class FarReachClient extends KvClient {
    private final TreeMap<String, PreservedRecord> preserved = new TreeMap<>();
    /** A switch recovery began while the pending operation was outstanding (see {@link #mayRetryWrite}). */
    private boolean switchRestartedSincePendingSent;

    /** One preserved write: the record the switch holds for {@code key} after it answered the write. */
    public record PreservedRecord(byte[] key, byte[] value, long seq, boolean deleted) {}

    public FarReachClient(NodeContext ctx, ClientConfig config, HistoryRecorder history) {
        super(ctx, config, history);
    }

    // ---- trace events (docs/conformance.md): the spec's Client* actions

    /**
     * A retried write is recognised by farreach.p4 (same client, same request id) and given its first
     * copy's sequence number, so it is applied at most once. A restarted switch has forgotten the first
     * copy: a retry would be numbered as a new write, and could overwrite a newer write after the first
     * copy had been applied. So once this client hears of a recovery (the controller's collection round
     * reaches every client before clients are served again) the pending write is not sent again; it ends
     * with an unknown outcome (docs/farreach.md, "Client semantics").
     */
    @Override
    protected boolean mayRetryWrite() {
        return !switchRestartedSincePendingSent;
    }

    @Override
    protected void onRequestSent(InnetMessage request, int attempt) {
        if (attempt == 1) {
            switchRestartedSincePendingSent = false;
        }
        boolean read = request.op() == KvOp.GET;
        TraceEvent e = TraceEvent.of(read ? FarReachTraceEvents.CLIENT_READ : FarReachTraceEvents.CLIENT_WRITE)
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
        boolean read = request.op() == KvOp.GET;
        String status = switch (reply.status()) {
            case KvStatus.OK -> "ok";
            case KvStatus.NOT_FOUND -> "notFound";
            default -> "failed";
        };
        ctx.trace(TraceEvent.of(FarReachTraceEvents.CLIENT_REPLY).with("op", read ? "read" : "write")
                .with("key", KvTraceFields.key(request.key())).with("reqId", request.reqId()).with("status", status)
                .with("fromSwitch", (reply.flags() & KvOp.FLAG_FROM_SWITCH) != 0).with("seq", reply.seq())
                .with("value", read && reply.status() == KvStatus.OK ? KvTraceFields.text(reply.value()) : ""));
    }

    @Override
    protected void onGaveUp(InnetMessage request) {
        ctx.trace(TraceEvent.of(FarReachTraceEvents.CLIENT_GAVE_UP).with("op", request.op() == KvOp.GET ? "read" : "write")
                .with("key", KvTraceFields.key(request.key())).with("reqId", request.reqId()));
    }

    /** Keeps the newest switch-answered write per key (an older one is superseded by it). */
    @Override
    protected void onSwitchAnsweredWrite(InnetMessage request, long seq) {
        String k = HexFormat.of().formatHex(request.key());
        PreservedRecord current = preserved.get(k);
        if (current == null || current.seq() < seq) {
            boolean deleted = request.op() == KvOp.DEL;
            preserved.put(k, new PreservedRecord(request.key(), deleted ? new byte[0] : request.value(), seq, deleted));
        }
    }

    /** Snapshot notifications and recovery's collection round. */
    @Override
    protected boolean onControl(InnetPacket packet) {
        InnetMessage msg = packet.message();
        switch (msg.op()) {
            case KvOp.SNAPSHOT_DONE -> {
                // (key, seq) entries: the snapshot, a server after an eviction, or the servers after
                // recovery's replay hold this seq or newer
                SnapshotCoverage.decode(msg.value(), (k, covered) -> {
                    PreservedRecord p = preserved.get(k);
                    if (p != null && releases(p, covered)) {
                        preserved.remove(k);
                    }
                });
                return true;
            }
            case KvOp.PRESERVED_REQUEST -> {
                switchRestartedSincePendingSent = busy();
                for (PreservedRecord p : preserved.values()) {
                    InnetMessage record = new InnetMessage(KvOp.PRESERVED_RECORD, p.deleted() ? KvOp.FLAG_DELETED : 0, 0,
                            msg.reqId(), p.key(), p.seq(), new byte[0], p.value());
                    ctx.network().send(packet.frame().reply(record.encode()));
                }
                InnetMessage end = new InnetMessage(KvOp.PRESERVED_END, 0, 0, msg.reqId(), new byte[InnetMessage.KEY_BYTES],
                        preserved.size(), new byte[0], new byte[0]);
                ctx.network().send(packet.frame().reply(end.encode()));
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * Whether a notice that the servers or the snapshot hold {@code covered} (a seq of p's key) or newer
     * makes {@code p} safe to drop: only if p is not newer. (A test-only subclass breaks this rule.)
     */
    protected boolean releases(PreservedRecord p, long covered) {
        return p.seq() <= covered;
    }

    /** The records this client currently preserves (for reports and tests). */
    public List<PreservedRecord> preservedRecords() {
        return List.copyOf(preserved.values());
    }
}
