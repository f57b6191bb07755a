package dev.innet.kv.server;

import dev.innet.kv.ConsistentHashRing;
import dev.innet.kv.HotKeyTracker;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.PacketPrologue;
import dev.innet.kv.store.RecordStore;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.kv.store.StoredRecord;
import dev.innet.protocol.NodeCounters;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The storage server of the key-value cache family: what nocache.p4, netcache.p4 and farreach.p4 all
 * put behind the switch. Pure event handling over the injected context; reply rules in
 * docs/wire-format.md §3. It serves reads, plain writes (arrival order) and writes the switch numbered
 * (kept only if newer than what is stored, §3.3), reads the switch marks for caching, and reports keys
 * the switch marked hot to the controller, once per period.
 *
 * <p>A protocol adds its own operations by overriding {@link #handleProtocolOp} (client port) and
 * {@link #handleControl} (control port); FarReach's record embedding and eviction stores do.
 */
public class StorageServer implements Node, NodeCounters {
    private final ServerConfig config;
    private final RecordStoreOpener opener;

    private NodeContext ctx;
    private RecordStore store;
    private ConsistentHashRing ring;
    private HotKeyTracker hot;
    private long hotPeriodTimer;
    private int myIp;
    private final ServerStats stats = new ServerStats();

    public StorageServer(ServerConfig config, RecordStoreOpener opener) {
        this.config = config;
        this.opener = opener;
    }

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        if (!config.serverHosts().contains(context.hostNumber())) {
            throw new IllegalStateException("host " + context.hostNumber() + " is not in the server list "
                    + config.serverHosts());
        }
        this.myIp = RackAddressing.hostIp(context.hostNumber());
        this.store = opener.open(context.durable().directory());
        this.ring = new ConsistentHashRing(config.serverHosts());
        this.hot = new HotKeyTracker(config.hotReportsPerPeriod());
        this.hotPeriodTimer = context.timers().schedule(config.hotPeriodNanos());
        context.log("server h" + context.hostNumber() + " up (incarnation " + context.incarnation() + ", " + store.size()
                + " keys stored)");
    }

    @Override
    public void onTimer(long timerId) {
        if (timerId == hotPeriodTimer) {
            hot.resetPeriod();
            hotPeriodTimer = ctx.timers().schedule(config.hotPeriodNanos());
        }
    }

    @Override
    public void onPacket(byte[] bytes) {
        InnetPacket packet = PacketPrologue.decodeOrDrop(bytes, f -> f.dstIp() == myIp
                && (f.dstPort() == KvOp.KV_PORT || f.dstPort() == KvOp.CONTROL_PORT), () -> stats.malformed++);
        if (packet == null) {
            return;
        }
        UdpFrame frame = packet.frame();
        InnetMessage msg = packet.message();
        stats.requests++;
        InnetMessage reply = frame.dstPort() == KvOp.KV_PORT ? handleKv(msg) : handleControl(msg);
        if (reply != null) {
            afterRequest(frame, msg, reply);
            ctx.network().send(frame.reply(reply.encode()));
        }
    }

    /**
     * A request was handled and {@code reply} is about to be sent: a hook for protocols that emit trace
     * events (docs/conformance.md); nothing by default. The store already reflects the request.
     */
    protected void afterRequest(UdpFrame frame, InnetMessage request, InnetMessage reply) {}

    /** The node's context, for subclasses' hooks (valid from {@link #onStart} on). */
    protected final NodeContext context() {
        return ctx;
    }

    private InnetMessage handleKv(InnetMessage msg) {
        if (msg.isReply()) {
            return error(msg, KvStatus.BAD_REQUEST);
        }
        if (!ownsKey(msg.key())) {
            stats.wrongPartition++;
            return error(msg, KvStatus.WRONG_PARTITION);
        }
        maybeReportHot(msg);
        return switch (msg.op()) {
            case KvOp.GET -> readReply(msg, KvOp.GET_REPLY);
            case KvOp.GET_FOR_CACHE -> readReply(msg, KvOp.GET_FOR_CACHE_REPLY);
            case KvOp.PUT, KvOp.PUT_SEQ -> write(msg, KvOp.PUT_REPLY);
            case KvOp.DEL, KvOp.DEL_SEQ -> write(msg, KvOp.DEL_REPLY);
            default -> handleProtocolOp(msg);
        };
    }

    /**
     * A client-port request that is none of the family's common operations, for a key this server owns.
     * The default answers BAD_OP; protocols with more operations override it.
     */
    protected InnetMessage handleProtocolOp(InnetMessage msg) {
        return badOp(msg);
    }

    /**
     * A request on the control port. The default answers an admission's SEQ_PROBE ({@link #seqProbe}) and BAD_OP
     * to anything else; protocols with more control messages override it.
     */
    protected InnetMessage handleControl(InnetMessage msg) {
        return msg.op() == KvOp.SEQ_PROBE ? seqProbe(msg) : badOp(msg);
    }

    /**
     * An admission's SEQ_PROBE (the specs' ServerProbe): the seq a read of the key would report now (for a
     * store that fences, records and absent keys read at least at the fence), the fill floor of the record the
     * switch just installed. Nothing is stored.
     */
    protected final InnetMessage seqProbe(InnetMessage msg) {
        if (!ownsKey(msg.key())) {
            return wrongPartition(msg);
        }
        InnetMessage read = readReply(msg, KvOp.SEQ_PROBE_REPLY);
        return new InnetMessage(KvOp.SEQ_PROBE_REPLY, 0, KvStatus.OK, msg.reqId(), msg.key(), read.seq(), new byte[0],
                new byte[0]);
    }

    /** How records the switch or the controller numbered are ordered: by sequence number (§3.3). */
    protected RecordStore.Ordering numberedOrdering() {
        return RecordStore.Ordering.BY_SEQUENCE;
    }

    protected final InnetMessage badOp(InnetMessage msg) {
        stats.badOp++;
        return error(msg, KvStatus.BAD_OP);
    }

    private InnetMessage write(InnetMessage msg, int replyOp) {
        boolean delete = msg.op() == KvOp.DEL || msg.op() == KvOp.DEL_SEQ;
        if (!delete && msg.value().length > config.maxValueBytes()) {
            return error(msg, KvStatus.VALUE_TOO_LARGE);
        }
        StoredRecord record = delete ? StoredRecord.tombstone(msg.seq()) : StoredRecord.value(msg.value(), msg.seq());
        boolean numbered = msg.op() == KvOp.PUT_SEQ || msg.op() == KvOp.DEL_SEQ;
        RecordStore.Applied applied = numbered ? applyNumbered(msg.key(), record)
                : store.apply(msg.key(), record, RecordStore.Ordering.ARRIVAL);
        if (applied == RecordStore.Applied.STALE_IGNORED) {
            stats.staleWritesIgnored++;
        } else if (applied == RecordStore.Applied.BELOW_FENCE) {
            // numbered by a switch incarnation recovery has fenced off: unacknowledged, so its client
            // (which does not retry a write across a recovery) ends it as unknown, which it is
            stats.fencedWritesRefused++;
            return null;
        }
        return new InnetMessage(replyOp, 0, KvStatus.OK, msg.reqId(), msg.key(), msg.seq(), new byte[0], new byte[0]);
    }

    /** The reply to a read of {@code msg}'s key: the stored record, or NOT_FOUND. */
    protected final InnetMessage readReply(InnetMessage msg, int replyOp) {
        Optional<StoredRecord> stored = store.get(msg.key());
        if (stored.isEmpty()) {
            return new InnetMessage(replyOp, 0, KvStatus.NOT_FOUND, msg.reqId(), msg.key(), 0, new byte[0], new byte[0]);
        }
        StoredRecord r = stored.get();
        int flags = r.deleted() ? KvOp.FLAG_DELETED : 0;
        int status = r.deleted() ? KvStatus.NOT_FOUND : KvStatus.OK;
        return new InnetMessage(replyOp, flags, status, msg.reqId(), msg.key(), r.seq(), new byte[0], r.value());
    }

    /** Applies a record the switch or controller numbered, ordered by {@link #numberedOrdering()}. */
    protected final RecordStore.Applied applyNumbered(byte[] key, StoredRecord record) {
        return store.apply(key, record, numberedOrdering());
    }

    /**
     * Reports a key the switch marked hot, with the server's record so the controller can admit it
     * without another round trip (§3.2). Uncacheable values (above 128 bytes) are not reported.
     */
    private void maybeReportHot(InnetMessage msg) {
        if ((msg.flags() & KvOp.FLAG_HOT) == 0) {
            return;
        }
        Optional<StoredRecord> stored = store.get(msg.key());
        if (stored.isPresent() && stored.get().value().length > InnetMessage.MAX_CACHED_VALUE_BYTES) {
            return;
        }
        if (!hot.observeHot(msg.key())) {
            return;
        }
        stats.hotReports++;
        StoredRecord r = stored.orElse(null);
        int status = r == null || r.deleted() ? KvStatus.NOT_FOUND : KvStatus.OK;
        int flags = r != null && r.deleted() ? KvOp.FLAG_DELETED : 0;
        InnetMessage report = new InnetMessage(KvOp.HOT_REPORT, flags, status, msg.reqId(), msg.key(),
                r == null ? 0 : r.seq(), new byte[0], r == null ? new byte[0] : r.value());
        int controller = config.controllerHost();
        ctx.network().send(new UdpFrame(RackAddressing.hostMac(controller), RackAddressing.hostMac(ctx.hostNumber()),
                myIp, RackAddressing.hostIp(controller), KvOp.CONTROL_PORT, KvOp.CONTROL_PORT, report.encode()));
    }

    protected final boolean ownsKey(byte[] key) {
        return ring.ownerOf(key) == ctx.hostNumber();
    }

    /** A WRONG_PARTITION reply, counted: the request reached a server that does not own its key. */
    protected final InnetMessage wrongPartition(InnetMessage msg) {
        stats.wrongPartition++;
        return error(msg, KvStatus.WRONG_PARTITION);
    }

    protected static InnetMessage error(InnetMessage msg, int status) {
        return new InnetMessage(msg.op() | InnetMessage.REPLY_BIT, 0, status, msg.reqId(), msg.key(), 0, new byte[0],
                new byte[0]);
    }

    /** For tests and reports: this incarnation's counters. */
    public ServerStats stats() {
        return stats;
    }

    @Override
    public Map<String, Long> counters() {
        Map<String, Long> c = new TreeMap<>();
        c.put("requests", stats.requests);
        c.put("malformed", stats.malformed);
        c.put("staleWritesIgnored", stats.staleWritesIgnored);
        c.put("fencedWritesRefused", stats.fencedWritesRefused);
        c.put("hotReports", stats.hotReports);
        return c;
    }

    /** For tests: the stored record of a key, read directly. */
    public Optional<StoredRecord> storedRecord(byte[] key) {
        return store.get(key);
    }
}
