package dev.innet.visibility.datanode;

import dev.innet.kv.PacketPrologue;
import dev.innet.protocol.NodeCounters;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.visibility.RackRoles;
import dev.innet.visibility.VisApplication;
import dev.innet.visibility.VisibilityTraceEvents;
import dev.innet.wire.RackAddressing;
import dev.innet.visibility.wire.IndexRecord;
import dev.innet.visibility.wire.LogAddress;
import dev.innet.visibility.wire.SlotTimestamp;
import dev.innet.visibility.wire.VisExt;
import dev.innet.visibility.wire.VisFrames;
import dev.innet.visibility.wire.VisOp;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.UdpFrame;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A data node (§II-B, §III-A, §III-B): appends writes to its log, stamping each from its slot's
 * timestamp source, and replies with the write's metadata (its log address), which the switch may make
 * visible; serves reads of a log address after checking the entry holds the queried key (§III-B 2);
 * answers a retried request with the entry it already wrote (§III-E 1). For recovery it replays its
 * newest entry of every key to a rebuilding metadata node (§III-E 2), reports its slots' last
 * timestamps for the switch's MaxTs reload (§III-E 3), and re-sends the asynchronous update of a log
 * entry whose switch entry went stale (§III-E 1).
 *
 * <p>Seeded-bug tests override {@link #validates}, {@link #earlierWriteOf} and {@link #replacesInReplay}.
 */
public class DataNode implements Node, NodeCounters {
    private final RackRoles roles;
    private final VisApplication application;
    private NodeContext ctx;
    private DataLog log;
    private long writes;
    private long retriedWrites;
    private long reads;
    private long mismatches;
    private long rejected;
    private long malformed;
    private long existing;
    private long absent;

    /** A data node of the key-value store. */
    public DataNode(RackRoles roles) {
        this(roles, VisApplication.KEY_VALUE);
    }

    public DataNode(RackRoles roles, VisApplication application) {
        this.roles = roles;
        this.application = application;
    }

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        this.log = new DataLog(context.durable());
    }

    @Override
    public void onPacket(byte[] bytes) {
        InnetPacket packet = PacketPrologue.decodeOrDrop(bytes, f -> f.dstPort() == VisOp.PORT, () -> malformed++);
        if (packet == null) {
            return;
        }
        InnetMessage m = packet.message();
        VisExt ext = VisExt.decodeOrNull(m.ext());
        if (ext == null) {
            malformed++;
            return;
        }
        switch (m.op()) {
            case VisOp.WRITE -> write(packet.frame(), m, ext);
            case VisOp.DATA_READ -> read(packet.frame(), m, ext);
            case VisOp.REBUILD -> replayIndex(packet.frame(), m, ext, VisOp.REBUILD_ENTRIES, VisOp.REBUILD_END);
            case VisOp.TIMESTAMPS -> reportTimestamps(packet.frame(), m, ext);
            case VisOp.RESEND_ASYNC -> resendAsync(m);
            default -> reply(packet.frame(), m, ext, VisOp.STATUS_BAD_REQUEST, 0, new byte[0]);
        }
    }

    @Override
    public void onTimer(long timerId) {}

    private void write(UdpFrame frame, InnetMessage m, VisExt ext) {
        if (!roles.hasher().extOf(m.key()).equals(ext) || roles.dataNodeOf(ext) != ctx.hostNumber()) {
            rejected++;
            reply(frame, m, ext, VisOp.STATUS_BAD_REQUEST, 0, new byte[0]);
            return;
        }
        long position = earlierWriteOf(frame.srcIp(), m.reqId());
        boolean retry = position >= 0;
        int replyFlags = 0;
        VisApplication.Admission admission = position >= 0 ? null : application.admit(m.flags(), log.newestOf(m.key()) >= 0);
        if (position >= 0) {
            retriedWrites++;
        } else if (admission == VisApplication.Admission.ABSENT) {
            absent++;
            reply(frame, m, ext, VisOp.STATUS_NOT_FOUND, 0, new byte[0]);
            return;
        } else if (admission == VisApplication.Admission.EXISTING) {
            // the key's newest entry goes back as any write reply would: through the switch (which may install
            // it, or raise MaxTs) and, if not installed, the client's second phase, so the existence the client
            // reports is committed first
            existing++;
            position = log.newestOf(m.key());
            replyFlags = VisOp.FLAG_EXISTS;
        } else {
            boolean tombstone = (m.flags() & VisOp.FLAG_TOMBSTONE) != 0;
            position = log.append(new LogEntry(m.key(), log.nextTs(ext.index()), ext, tombstone, frame.srcIp(),
                    m.reqId(), tombstone ? new byte[0] : m.value()));
            writes++;
        }
        LogEntry e = log.at(position);
        ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.DN_WRITE).with("client", RackAddressing.hostOfIp(frame.srcIp()))
                .with("reqId", m.reqId()).with("key", VisibilityTraceEvents.hex(m.key())).with("ts", e.ts())
                .with("position", position).with("retry", retry));
        InnetMessage r = VisFrames.message(m.op() | InnetMessage.REPLY_BIT, replyFlags, VisOp.STATUS_OK, m.reqId(), m.key(),
                e.ts(), ext, metadataOf(e, position));
        ctx.network().send(frame.reply(r.encode()));
    }

    /** The metadata the entry at {@code position} makes visible: its log address, then the application's tail. */
    private byte[] metadataOf(LogEntry e, long position) {
        return IndexRecord.metadataOf(new LogAddress(ctx.hostNumber(), position), application.tailOf(e));
    }

    /**
     * The log position this request already wrote, or -1 (§III-E 1: "Client requests include a unique
     * request ID, allowing the server to detect and correctly handle duplicate submissions").
     */
    protected long earlierWriteOf(int clientIp, long reqId) {
        return log.positionOf(clientIp, reqId);
    }

    private void read(UdpFrame frame, InnetMessage m, VisExt ext) {
        LogAddress address = LogAddress.decodeOrNull(m.value());
        LogEntry e = address == null || address.dataNode() != ctx.hostNumber() ? null : log.at(address.position());
        if (e == null) {
            rejected++;
            reply(frame, m, ext, VisOp.STATUS_BAD_REQUEST, 0, new byte[0]);
            return;
        }
        reads++;
        boolean valid = validates(e, m.key());
        ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.DN_READ).with("client", RackAddressing.hostOfIp(frame.srcIp()))
                .with("reqId", m.reqId()).with("key", VisibilityTraceEvents.hex(m.key())).with("position", address.position())
                .with("valid", valid));
        if (!valid) {
            mismatches++;
            reply(frame, m, ext, VisOp.STATUS_KEY_MISMATCH, 0, new byte[0]);
        } else if (e.tombstone()) {
            reply(frame, m, ext, VisOp.STATUS_NOT_FOUND, e.ts(), new byte[0]);
        } else {
            reply(frame, m, ext, VisOp.STATUS_OK, e.ts(), e.value());
        }
    }

    /** §III-B 2: "checks whether the key in the log entry is equal to the queried key". */
    protected boolean validates(LogEntry entry, byte[] queriedKey) {
        return entry.holdsKey(queriedKey);
    }

    /** The newest entry of every key this node holds, in key order, then an end marker with the count. */
    private void replayIndex(UdpFrame frame, InnetMessage m, VisExt ext, int entriesOp, int endOp) {
        Map<String, IndexRecord> newest = new TreeMap<>();
        for (long p = 0; p < log.size(); p++) {
            LogEntry e = log.at(p);
            String k = Arrays.toString(e.key());
            IndexRecord r = newest.get(k);
            if (r == null || replacesInReplay(e, r)) {
                newest.put(k, new IndexRecord(e.key(), e.ts(), e.ext(), new LogAddress(ctx.hostNumber(), p),
                        application.tailOf(e)));
            }
        }
        List<IndexRecord> all = new ArrayList<>(newest.values());
        for (byte[] part : IndexRecord.packMessages(all)) {
            reply(frame, m, ext, VisOp.STATUS_OK, 0, part, entriesOp);
        }
        reply(frame, m, ext, VisOp.STATUS_OK, all.size(), new byte[0], endOp);
    }

    /**
     * Whether {@code later}, an entry after {@code chosen}'s in the log, of the same key, replaces it as the entry a
     * rebuild replays: when it is newer (entries of a key are appended in timestamp order, so always). Seeded-bug
     * tests override it.
     */
    protected boolean replacesInReplay(LogEntry later, IndexRecord chosen) {
        return chosen.ts() < later.ts();
    }

    private void reportTimestamps(UdpFrame frame, InnetMessage m, VisExt ext) {
        List<SlotTimestamp> all = new ArrayList<>();
        new TreeMap<>(log.lastTimestamps()).forEach((slot, ts) -> all.add(new SlotTimestamp(slot, ts)));
        for (int i = 0; i < all.size(); i += SlotTimestamp.PER_MESSAGE) {
            List<SlotTimestamp> part = all.subList(i, Math.min(all.size(), i + SlotTimestamp.PER_MESSAGE));
            reply(frame, m, ext, VisOp.STATUS_OK, 0, SlotTimestamp.pack(part), VisOp.TIMESTAMP_ENTRIES);
        }
        reply(frame, m, ext, VisOp.STATUS_OK, all.size(), new byte[0], VisOp.TIMESTAMPS_END);
    }

    /** The switch OS saw a stale entry pointing at {@code position}: the metadata node gets its update again. */
    private void resendAsync(InnetMessage m) {
        if (m.value().length != Long.BYTES) {
            malformed++;
            return;
        }
        long position = ByteBuffer.wrap(m.value()).getLong();
        LogEntry e = log.at(position);
        if (e == null) {
            rejected++;
            return;
        }
        InnetMessage update = VisFrames.message(VisOp.META_ASYNC, 0, VisOp.STATUS_OK, m.reqId(), e.key(), e.ts(), e.ext(),
                metadataOf(e, position));
        ctx.network().send(VisFrames.serverToServer(ctx.hostNumber(), roles.metadataNode(), update));
    }

    private void reply(UdpFrame frame, InnetMessage m, VisExt ext, int status, long ts, byte[] value) {
        reply(frame, m, ext, status, ts, value, m.op() | InnetMessage.REPLY_BIT);
    }

    private void reply(UdpFrame frame, InnetMessage m, VisExt ext, int status, long ts, byte[] value, int op) {
        InnetMessage r = VisFrames.message(op, 0, status, m.reqId(), m.key(), ts, ext, value);
        ctx.network().send(frame.reply(r.encode()));
    }

    /** The log's entries in order (read-only: the conformance replay maps them to the spec's dlog and tsGen). */
    public List<LogEntry> logEntries() {
        List<LogEntry> all = new ArrayList<>();
        for (long p = 0; p < log.size(); p++) {
            all.add(log.at(p));
        }
        return all;
    }

    @Override
    public Map<String, Long> counters() {
        Map<String, Long> c = new HashMap<>();
        c.put("requests", writes + retriedWrites + reads);
        c.put("writes", writes);
        c.put("retriedWrites", retriedWrites);
        c.put("reads", reads);
        c.put("keyMismatches", mismatches);
        c.put("rejected", rejected);
        c.put("malformed", malformed);
        c.put("existingAnswers", existing);
        c.put("absentAnswers", absent);
        return c;
    }
}
