package dev.innet.kv.server;

import dev.innet.kv.ConsistentHashRing;
import dev.innet.kv.HotKeyTracker;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.store.RecordStore;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.kv.store.StoredRecord;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;
import java.util.Optional;

/**
 * A storage server of the key-value cache family: the same server behind nocache.p4, netcache.p4 and
 * farreach.p4. Pure event handling over the injected context; reply rules in docs/wire-format.md §3.
 *
 * <p>FarReach duties (§3.2-3.3): keep the record with the higher switch-assigned sequence number;
 * resolve a record embedded by the switch into a read against its own; store records the controller
 * evicts; report keys the switch marked hot to the controller, once per period.
 */
public final class StorageServer implements Node {

    /** How the server orders numbered writes. Only tests that show a monitor catching a bug use IGNORE. */
    public enum SequenceRule {
        /** Keep the higher sequence number (the protocol). */
        HONOUR,
        /** Seeded bug: apply every write in arrival order, as if sequence numbers did not exist. */
        IGNORE
    }

    private final ServerConfig config;
    private final RecordStoreOpener opener;
    private final SequenceRule sequenceRule;

    private NodeContext ctx;
    private RecordStore store;
    private ConsistentHashRing ring;
    private HotKeyTracker hot;
    private long hotPeriodTimer;
    private int myIp;
    private final ServerStats stats = new ServerStats();

    public StorageServer(ServerConfig config, RecordStoreOpener opener, SequenceRule sequenceRule) {
        this.config = config;
        this.opener = opener;
        this.sequenceRule = sequenceRule;
    }

    public StorageServer(ServerConfig config, RecordStoreOpener opener) {
        this(config, opener, SequenceRule.HONOUR);
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
        InnetPacket packet;
        try {
            packet = InnetPacket.decode(bytes);
        } catch (WireException e) {
            // Without a decodable header there is no request id to answer; count and drop (docs/wire-format.md).
            stats.malformed++;
            return;
        }
        UdpFrame frame = packet.frame();
        InnetMessage msg = packet.message();
        if (frame.dstIp() != myIp || (frame.dstPort() != KvOp.KV_PORT && frame.dstPort() != KvOp.CONTROL_PORT)) {
            stats.malformed++;
            return; // not addressed to us: a switch program bug or stray traffic; never answer it
        }
        stats.requests++;
        InnetMessage reply = frame.dstPort() == KvOp.KV_PORT ? handleKv(msg) : handleControl(msg);
        if (reply != null) {
            ctx.network().send(frame.reply(reply.encode()));
        }
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
            case KvOp.GET_EMBED -> {
                // Record embedding (§3.3): the switch's record may be newer than ours (a write it absorbed
                // before eviction started); keep whichever is newer, then answer from the result.
                if (applyRecord(msg.key(), StoredRecord.carriedBy(msg)) == RecordStore.Applied.STORED) {
                    stats.embeddedRecordsApplied++;
                }
                yield readReply(msg, KvOp.GET_REPLY);
            }
            default -> {
                stats.badOp++;
                yield error(msg, KvStatus.BAD_OP);
            }
        };
    }

    private InnetMessage handleControl(InnetMessage msg) {
        return switch (msg.op()) {
            case KvOp.EVICT_STORE, KvOp.RECOVER_STORE -> {
                if (!ownsKey(msg.key())) {
                    stats.wrongPartition++;
                    yield error(msg, KvStatus.WRONG_PARTITION);
                }
                applyRecord(msg.key(), StoredRecord.carriedBy(msg));
                yield msg.reply(KvStatus.OK, msg.seq(), new byte[0]);
            }
            default -> {
                stats.badOp++;
                yield error(msg, KvStatus.BAD_OP);
            }
        };
    }

    private InnetMessage write(InnetMessage msg, int replyOp) {
        boolean delete = msg.op() == KvOp.DEL || msg.op() == KvOp.DEL_SEQ;
        if (!delete && msg.value().length > config.maxValueBytes()) {
            return error(msg, KvStatus.VALUE_TOO_LARGE);
        }
        StoredRecord record = delete ? StoredRecord.tombstone(msg.seq()) : StoredRecord.value(msg.value(), msg.seq());
        boolean numbered = msg.op() == KvOp.PUT_SEQ || msg.op() == KvOp.DEL_SEQ;
        RecordStore.Applied applied = numbered ? applyRecord(msg.key(), record)
                : store.apply(msg.key(), record, RecordStore.Ordering.ARRIVAL);
        if (applied == RecordStore.Applied.STALE_IGNORED) {
            stats.staleWritesIgnored++;
        }
        return new InnetMessage(replyOp, 0, KvStatus.OK, msg.reqId(), msg.key(), msg.seq(), new byte[0], new byte[0]);
    }

    private InnetMessage readReply(InnetMessage msg, int replyOp) {
        Optional<StoredRecord> stored = store.get(msg.key());
        if (stored.isEmpty()) {
            return new InnetMessage(replyOp, 0, KvStatus.NOT_FOUND, msg.reqId(), msg.key(), 0, new byte[0], new byte[0]);
        }
        StoredRecord r = stored.get();
        int flags = r.deleted() ? KvOp.FLAG_DELETED : 0;
        int status = r.deleted() ? KvStatus.NOT_FOUND : KvStatus.OK;
        return new InnetMessage(replyOp, flags, status, msg.reqId(), msg.key(), r.seq(), new byte[0], r.value());
    }

    /** Applies a record the switch or controller numbered (ordered by sequence number, §3.3). */
    private RecordStore.Applied applyRecord(byte[] key, StoredRecord record) {
        return store.apply(key, record,
                sequenceRule == SequenceRule.HONOUR ? RecordStore.Ordering.BY_SEQUENCE : RecordStore.Ordering.ARRIVAL);
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

    private boolean ownsKey(byte[] key) {
        return ring.ownerOf(key) == ctx.hostNumber();
    }

    private static InnetMessage error(InnetMessage msg, int status) {
        return new InnetMessage(msg.op() | InnetMessage.REPLY_BIT, 0, status, msg.reqId(), msg.key(), 0, new byte[0],
                new byte[0]);
    }

    /** For tests and reports: this incarnation's counters. */
    public ServerStats stats() {
        return stats;
    }

    /** For tests: the stored record of a key, read directly. */
    public Optional<StoredRecord> storedRecord(byte[] key) {
        return store.get(key);
    }
}
