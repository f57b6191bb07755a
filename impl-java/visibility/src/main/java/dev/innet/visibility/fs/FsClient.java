package dev.innet.visibility.fs;

import dev.innet.kv.PacketPrologue;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpKind;
import dev.innet.sim.history.OpResult;
import dev.innet.visibility.RackRoles;
import dev.innet.visibility.client.RequestChannel;
import dev.innet.visibility.client.VisibilityClient;
import dev.innet.visibility.wire.VisExt;
import dev.innet.visibility.wire.VisFrames;
import dev.innet.visibility.wire.VisOp;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import java.util.function.Consumer;

/**
 * The client of the file-system namespace on the visibility layer (docs/visibility.md, "The second
 * application"). create and write are writes of the layer: WRITE to the path's data node (create with
 * flag CREATE), committed in one round trip when the switch marks the reply VISIBLE, else by the ordered
 * second phase (META_UPDATE with the reply's inode). A reply flagged EXISTS (the create found the path)
 * goes the same way, so the existence is committed before the client reports it. stat is one READ: the
 * switch answers it from its entry, or the metadata node from its index; an inode of another path (a
 * shared slot and fingerprint, §III-B 2) is not the answer, and the READ is sent again until the entry is
 * the path's or cleared. Every phase is re-sent after the timeout with the same request id; one
 * operation at a time; each recorded in the history with the value docs/history-format.md §3.2 asks for
 * (size, writer host, request id: {@link Inode#observation}).
 *
 * <p>Seeded-bug tests override {@link #describes} and {@link #commitsAtOnce}.
 */
public class FsClient {
    private final NodeContext ctx;
    private final RackRoles roles;
    private final HistoryRecorder history;
    private final RequestChannel channel;
    private final int maxValidationRetries;
    private Op op;

    private enum Phase { WRITE_DATA, WRITE_META, STAT }

    private static final class Op {
        final OpKind kind;
        final byte[] path;
        final VisExt ext;
        final long reqId;
        final Consumer<FsResult> done;
        final long historyId;
        Phase phase;
        int validationRetries;
        boolean exists;

        Op(OpKind kind, byte[] path, VisExt ext, long reqId, Consumer<FsResult> done, long historyId) {
            this.kind = kind;
            this.path = path;
            this.ext = ext;
            this.reqId = reqId;
            this.done = done;
            this.historyId = historyId;
        }
    }

    public FsClient(NodeContext ctx, RackRoles roles, HistoryRecorder history, int maxAttempts, int maxValidationRetries) {
        this.channel = new RequestChannel(ctx, roles.timeoutNanos(), maxAttempts);
        this.ctx = ctx;
        this.roles = roles;
        this.history = history;
        this.maxValidationRetries = maxValidationRetries;
    }

    public boolean busy() {
        return op != null;
    }

    public void create(byte[] path, Consumer<FsResult> done) {
        start(OpKind.CREATE, path, new byte[0], done);
    }

    /** Replaces the file's data with {@code data} (a whole-file write). */
    public void write(byte[] path, byte[] data, Consumer<FsResult> done) {
        start(OpKind.WRITE, path, data, done);
    }

    public void stat(byte[] path, Consumer<FsResult> done) {
        start(OpKind.STAT, path, new byte[0], done);
    }

    private void start(OpKind kind, byte[] path, byte[] data, Consumer<FsResult> done) {
        long reqId = channel.begin(path);
        byte[] written = kind == OpKind.STAT ? null : Inode.observation(data.length, ctx.hostNumber(), reqId);
        long historyId = history == null ? 0 : history.invoke(channel.historyClientId(), kind, path, written);
        op = new Op(kind, path, roles.hasher().extOf(path), reqId, done, historyId);
        if (kind == OpKind.STAT) {
            askMetadata();
        } else {
            int flags = kind == OpKind.CREATE ? VisOp.FLAG_CREATE : 0;
            send(Phase.WRITE_DATA, roles.dataNodeOf(op.ext), VisFrames.message(VisOp.WRITE, flags, 0, reqId, path, 0, op.ext, data));
        }
    }

    private void askMetadata() {
        send(Phase.STAT, roles.metadataNode(), VisFrames.message(VisOp.READ, 0, 0, op.reqId, op.path, 0, op.ext, new byte[0]));
    }

    private void send(Phase phase, int host, InnetMessage m) {
        op.phase = phase;
        channel.send(host, m);
    }

    /** Handles a frame; true if it was the client's (a reply on its port). */
    public boolean onPacket(byte[] bytes) {
        InnetPacket packet = PacketPrologue.decodeOrDrop(bytes, f -> true, () -> {});
        if (packet == null || packet.frame().dstPort() != VisibilityClient.SOURCE_PORT || packet.frame().srcPort() != VisOp.PORT) {
            return false;
        }
        InnetMessage r = packet.message();
        if (op == null || r.reqId() != op.reqId) {
            return true; // a late or duplicated reply of an earlier operation
        }
        boolean visibleWriteReply = r.op() == VisOp.WRITE_REPLY && r.status() == VisOp.STATUS_OK
                && (r.flags() & VisOp.FLAG_VISIBLE) != 0;
        if (op.phase == Phase.WRITE_META && visibleWriteReply) {
            // a copy of the WRITE answered later was installed: committed now (as VisibilityClient's lateVisibleReply)
            writeReplied(r);
            return true;
        }
        int expected = switch (op.phase) {
            case WRITE_DATA -> VisOp.WRITE_REPLY;
            case WRITE_META -> VisOp.META_UPDATE_REPLY;
            case STAT -> VisOp.READ_REPLY;
        };
        if (r.op() != expected || r.status() == VisOp.STATUS_UNAVAILABLE) {
            return true; // an earlier phase's reply, or the metadata node is rebuilding: the timer re-sends
        }
        switch (op.phase) {
            case WRITE_DATA -> writeReplied(r);
            // the entry is in the log already: a refused second phase leaves the effect unknown
            case WRITE_META -> finish(r.status() == VisOp.STATUS_OK ? committed() : FsResult.Outcome.TIMED_OUT, null, false);
            case STAT -> statReplied(r);
        }
        return true;
    }

    private FsResult.Outcome committed() {
        return op.exists ? FsResult.Outcome.EXISTS : FsResult.Outcome.OK;
    }

    private void writeReplied(InnetMessage r) {
        if (r.status() == VisOp.STATUS_NOT_FOUND && op.kind == OpKind.WRITE) {
            finish(FsResult.Outcome.NOT_FOUND, null, false);
            return;
        }
        if (r.status() != VisOp.STATUS_OK) {
            finish(FsResult.Outcome.FAILED, null, false);
            return;
        }
        op.exists = (r.flags() & VisOp.FLAG_EXISTS) != 0;
        if (commitsAtOnce(r)) {
            finish(committed(), null, true);
        } else {
            send(Phase.WRITE_META, roles.metadataNode(),
                    VisFrames.message(VisOp.META_UPDATE, 0, 0, op.reqId, op.path, r.seq(), op.ext, r.value()));
        }
    }

    /**
     * Whether a WRITE_REPLY commits the operation by itself: when the switch installed its inode (VISIBLE).
     * A reply flagged EXISTS does not: the existing path's newest inode may be in no switch entry and not yet
     * at the metadata node (its own create's reply still on the way), so reporting "exists" then could be
     * followed by a stat that finds nothing.
     */
    protected boolean commitsAtOnce(InnetMessage writeReply) {
        return (writeReply.flags() & VisOp.FLAG_VISIBLE) != 0;
    }

    private void statReplied(InnetMessage r) {
        if (r.status() == VisOp.STATUS_NOT_FOUND) {
            finish(FsResult.Outcome.NOT_FOUND, null, false);
            return;
        }
        Inode inode = r.status() == VisOp.STATUS_OK ? Inode.decodeOrNull(r.value()) : null;
        if (inode == null) {
            finish(FsResult.Outcome.FAILED, null, false);
        } else if (describes(inode, op.path)) {
            finish(FsResult.Outcome.OK, inode, (r.flags() & VisOp.FLAG_FROM_SWITCH) != 0);
        } else if (++op.validationRetries > maxValidationRetries) {
            finish(FsResult.Outcome.FAILED, null, false);
        } else {
            askMetadata(); // another path's entry in the switch (§III-B 2): ask again until it is ours or cleared
        }
    }

    /** Whether the inode a READ returned is the queried path's (§III-B 2's validation, done on the inode's path). */
    protected boolean describes(Inode inode, byte[] path) {
        return inode.describes(path);
    }

    /** Handles a timer; true if it was the client's. */
    public boolean onTimer(long timerId) {
        if (op == null) {
            return false;
        }
        RequestChannel.Timer t = channel.onTimer(timerId, () -> {});
        if (t == RequestChannel.Timer.GAVE_UP) {
            finish(FsResult.Outcome.TIMED_OUT, null, false);
        }
        return t != RequestChannel.Timer.NOT_OURS;
    }

    private void finish(FsResult.Outcome outcome, Inode inode, boolean fromSwitch) {
        Op o = op;
        op = null;
        channel.end(outcome == FsResult.Outcome.TIMED_OUT);
        if (history != null) {
            switch (outcome) {
                case OK -> history.complete(o.historyId, OpResult.OK, o.kind == OpKind.STAT ? inode.observation() : null);
                case EXISTS -> history.complete(o.historyId, OpResult.EXISTS, null);
                case NOT_FOUND -> history.complete(o.historyId, OpResult.NOT_FOUND, null);
                case FAILED -> history.complete(o.historyId, OpResult.FAIL, null);
                case TIMED_OUT -> history.complete(o.historyId, OpResult.UNKNOWN, null);
            }
        }
        o.done.accept(new FsResult(outcome, inode, fromSwitch, channel.attempts()));
    }
}
