package dev.innet.visibility.client;

import dev.innet.kv.PacketPrologue;
import dev.innet.protocol.KvClientLibrary;
import dev.innet.protocol.KvResult;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpKind;
import dev.innet.sim.history.OpResult;
import dev.innet.visibility.RackRoles;
import dev.innet.visibility.VisibilityTraceEvents;
import dev.innet.visibility.wire.LogAddress;
import dev.innet.visibility.wire.VisExt;
import dev.innet.visibility.wire.VisFrames;
import dev.innet.visibility.wire.VisOp;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import java.util.function.Consumer;

/**
 * The client of the log-structured key-value store on the visibility layer (§III-A, Fig. 2).
 *
 * <p>put/delete: WRITE to the key's data node; a reply the switch marked VISIBLE commits the write in
 * one round trip; an unmarked one (the entry was busy, §III-B 1) makes the client run the ordered
 * second phase, META_UPDATE to the metadata node, whose reply commits it. get: READ to the metadata node
 * (the switch answers it when it holds the key's entry), then DATA_READ of the log address at the data
 * node; a failed key validation (hash collision, §III-B 2) restarts the read. Every phase is re-sent
 * after the paper's timeout (§III-E 1, about 500 us) with the same request id, which makes re-sends
 * idempotent at the data node. One operation at a time; every one recorded in the history.
 */
public final class VisibilityClient implements KvClientLibrary {
    public static final int SOURCE_PORT = 40011;

    private final NodeContext ctx;
    private final RackRoles roles;
    private final HistoryRecorder history;
    private final RequestChannel channel;
    private final int maxValidationRetries;
    private Op op;

    private enum Phase { WRITE_DATA, WRITE_META, READ_META, READ_DATA }

    private static final class Op {
        final OpKind kind;
        final byte[] key;
        final byte[] value;
        final VisExt ext;
        final long reqId;
        final Consumer<KvResult> done;
        final long historyId;
        Phase phase;
        int validationRetries;

        Op(OpKind kind, byte[] key, byte[] value, VisExt ext, long reqId, Consumer<KvResult> done, long historyId) {
            this.kind = kind;
            this.key = key;
            this.value = value;
            this.ext = ext;
            this.reqId = reqId;
            this.done = done;
            this.historyId = historyId;
        }
    }

    public VisibilityClient(NodeContext ctx, RackRoles roles, HistoryRecorder history, int maxAttempts,
            int maxValidationRetries) {
        this.channel = new RequestChannel(ctx, roles.timeoutNanos(), maxAttempts);
        this.ctx = ctx;
        this.roles = roles;
        this.history = history;
        this.maxValidationRetries = maxValidationRetries;
    }

    @Override
    public boolean busy() {
        return op != null;
    }

    @Override
    public void get(byte[] key, Consumer<KvResult> done) {
        start(OpKind.GET, key, new byte[0], done);
    }

    @Override
    public void put(byte[] key, byte[] value, Consumer<KvResult> done) {
        start(OpKind.PUT, key, value, done);
    }

    @Override
    public void delete(byte[] key, Consumer<KvResult> done) {
        start(OpKind.DELETE, key, new byte[0], done);
    }

    /** The history client id, renewed after each unknown outcome (as KvClient does). */
    public int historyClientId() {
        return channel.historyClientId();
    }

    private void start(OpKind kind, byte[] key, byte[] value, Consumer<KvResult> done) {
        long reqId = channel.begin(key);
        long historyId = history == null ? 0 : history.invoke(historyClientId(), kind, key, kind == OpKind.PUT ? value : null);
        op = new Op(kind, key, value, roles.hasher().extOf(key), reqId, done, historyId);
        ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.CLIENT_OP)
                .with("op", kind == OpKind.GET ? "get" : kind == OpKind.PUT ? "put" : "delete").with("reqId", reqId)
                .with("key", VisibilityTraceEvents.hex(key)).with("slot", op.ext.index()).with("fp", op.ext.fingerprint()));
        if (kind == OpKind.GET) {
            askMetadata();
        } else {
            int flags = kind == OpKind.DELETE ? VisOp.FLAG_TOMBSTONE : 0;
            send(Phase.WRITE_DATA, roles.dataNodeOf(op.ext),
                    VisFrames.message(VisOp.WRITE, flags, 0, reqId, key, 0, op.ext, value));
        }
    }

    private void askMetadata() {
        send(Phase.READ_META, roles.metadataNode(),
                VisFrames.message(VisOp.READ, 0, 0, op.reqId, op.key, 0, op.ext, new byte[0]));
    }

    private void send(Phase phase, int host, InnetMessage m) {
        op.phase = phase;
        traceIfResend();
        channel.send(host, m);
    }

    /** Every request of an operation after its first is traced as a re-send (of the phase it belongs to). */
    private void traceIfResend() {
        if (channel.attempts() >= 1) {
            ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.CLIENT_RESEND).with("reqId", op.reqId)
                    .with("phase", switch (op.phase) {
                        case WRITE_DATA -> "writeData";
                        case WRITE_META -> "writeMeta";
                        case READ_META -> "readMeta";
                        case READ_DATA -> "readData";
                    }));
        }
    }

    @Override
    public boolean onPacket(byte[] bytes) {
        InnetPacket packet = PacketPrologue.decodeOrDrop(bytes, f -> true, () -> {});
        if (packet == null || packet.frame().dstPort() != SOURCE_PORT || packet.frame().srcPort() != VisOp.PORT) {
            return false;
        }
        InnetMessage r = packet.message();
        ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.CLIENT_RECV).with("op", r.op()).with("reqId", r.reqId())
                .with("status", r.status()).with("visible", (r.flags() & VisOp.FLAG_VISIBLE) != 0).with("seq", r.seq()));
        if (op != null && r.reqId() == op.reqId && lateVisibleReply(r)) {
            writeReplied(r);
            return true;
        }
        if (op == null || r.reqId() != op.reqId || r.op() != expectedReply()) {
            return true; // a late or duplicated reply of an earlier phase or operation: ours, ignored
        }
        if (r.status() == VisOp.STATUS_UNAVAILABLE) {
            return true; // the metadata node is rebuilding; the pending timer re-sends
        }
        switch (op.phase) {
            case WRITE_DATA -> writeReplied(r);
            // the data is in the log already: a refused second phase leaves the write's effect unknown
            // (a metadata node rebuilt from the logs would make it visible)
            case WRITE_META -> finish(r.status() == VisOp.STATUS_OK ? KvResult.Outcome.OK : KvResult.Outcome.TIMED_OUT,
                    new byte[0], r.seq(), false, r.status());
            case READ_META -> metadataReplied(r);
            case READ_DATA -> dataReplied(r);
        }
        return true;
    }

    /**
     * A WRITE_REPLY the switch marked VISIBLE reaching a write already in its second phase: two copies of
     * the WRITE (a retry or a duplicate) were answered, the first reply fell back and this one was
     * installed. The switch holds the write's metadata, so the write is committed now (Visibility.tla's
     * ClientCommit takes it in phase "meta" too); the second phase still in flight is idempotent.
     */
    private boolean lateVisibleReply(InnetMessage r) {
        return op.phase == Phase.WRITE_META && r.op() == VisOp.WRITE_REPLY && r.status() == VisOp.STATUS_OK
                && (r.flags() & VisOp.FLAG_VISIBLE) != 0;
    }

    private int expectedReply() {
        return switch (op.phase) {
            case WRITE_DATA -> VisOp.WRITE_REPLY;
            case WRITE_META -> VisOp.META_UPDATE_REPLY;
            case READ_META -> VisOp.READ_REPLY;
            case READ_DATA -> VisOp.DATA_READ_REPLY;
        };
    }

    private void writeReplied(InnetMessage r) {
        if (r.status() != VisOp.STATUS_OK) {
            finish(KvResult.Outcome.FAILED, new byte[0], 0, false, r.status());
        } else if ((r.flags() & VisOp.FLAG_VISIBLE) != 0) {
            finish(KvResult.Outcome.OK, new byte[0], r.seq(), true, r.status());
        } else {
            // §II-B data visibility phase: the client installs the metadata itself
            send(Phase.WRITE_META, roles.metadataNode(),
                    VisFrames.message(VisOp.META_UPDATE, 0, 0, op.reqId, op.key, r.seq(), op.ext, r.value()));
        }
    }

    private void metadataReplied(InnetMessage r) {
        if (r.status() == VisOp.STATUS_NOT_FOUND) {
            finish(KvResult.Outcome.NOT_FOUND, new byte[0], 0, false, r.status());
            return;
        }
        LogAddress address = r.status() == VisOp.STATUS_OK ? LogAddress.decodeOrNull(r.value()) : null;
        if (address == null) {
            finish(KvResult.Outcome.FAILED, new byte[0], 0, false, r.status());
            return;
        }
        send(Phase.READ_DATA, address.dataNode(),
                VisFrames.message(VisOp.DATA_READ, r.flags() & VisOp.FLAG_FROM_SWITCH, 0, op.reqId, op.key, 0, op.ext,
                        address.encode()));
    }

    private void dataReplied(InnetMessage r) {
        boolean fromSwitch = (channel.request().payload()[2] & VisOp.FLAG_FROM_SWITCH) != 0;
        switch (r.status()) {
            case VisOp.STATUS_OK -> finish(KvResult.Outcome.OK, r.value(), r.seq(), fromSwitch, r.status());
            case VisOp.STATUS_NOT_FOUND -> finish(KvResult.Outcome.NOT_FOUND, new byte[0], r.seq(), fromSwitch, r.status());
            case VisOp.STATUS_KEY_MISMATCH -> {
                // §III-B 2: the entry belonged to a colliding key; retry until it is ours or cleared
                if (++op.validationRetries > maxValidationRetries) {
                    finish(KvResult.Outcome.FAILED, new byte[0], 0, false, r.status());
                } else {
                    askMetadata();
                }
            }
            default -> finish(KvResult.Outcome.FAILED, new byte[0], 0, false, r.status());
        }
    }

    @Override
    public boolean onTimer(long timerId) {
        if (op == null) {
            return false;
        }
        return switch (channel.onTimer(timerId, this::traceIfResend)) {
            case NOT_OURS -> false;
            case RESENT -> true;
            case GAVE_UP -> {
                finish(KvResult.Outcome.TIMED_OUT, new byte[0], 0, false, -1);
                yield true;
            }
        };
    }

    private void finish(KvResult.Outcome outcome, byte[] value, long ts, boolean fromSwitch, int status) {
        Op o = op;
        op = null;
        channel.end(outcome == KvResult.Outcome.TIMED_OUT);
        if (history != null) {
            switch (outcome) {
                case OK -> history.complete(o.historyId, OpResult.OK, o.kind == OpKind.GET ? value : null);
                case NOT_FOUND -> history.complete(o.historyId, OpResult.NOT_FOUND, null);
                case FAILED -> history.complete(o.historyId, OpResult.FAIL, null);
                case TIMED_OUT -> history.complete(o.historyId, OpResult.UNKNOWN, null);
            }
        }
        o.done.accept(new KvResult(outcome, o.kind == OpKind.GET ? value : new byte[0], ts, fromSwitch, status,
                channel.attempts()));
    }
}
