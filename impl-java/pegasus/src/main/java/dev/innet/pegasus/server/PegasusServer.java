package dev.innet.pegasus.server;

import dev.innet.kv.KvStatus;
import dev.innet.kv.store.RecordStore;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.kv.store.StoredRecord;
import dev.innet.pegasus.PegasusRack;
import dev.innet.pegasus.PegasusTraceEvents;
import dev.innet.pegasus.chain.ChainRole;
import dev.innet.pegasus.monitor.AtMostOnceMonitor;
import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.protocol.NodeCounters;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.TraceEvent;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A Pegasus storage server (§4.3, §6.2): (value, version) per key in RocksDB (or memory), a write applied
 * only if its version is higher than the stored one and acknowledged either way, reads answered with
 * value and version, every reply carrying this server's index and load for the switch (Algorithm 2 and
 * §4.4). As a detector (§6.4) it looks the request up in its durable {@link ClientTable}, answers a
 * duplicate with the recorded version, and otherwise executes the write, records it and forwards it to
 * the replicas the switch listed. As a key's home it serves virtual writes (§6.3). Spec actions:
 * ServerWrite, ServerRead, ServerVirtualWrite (specs/pegasus/Pegasus.tla).
 *
 * <p>Not final: seeded-bug tests subclass it ({@link #accepts}, {@link #recordedRequest},
 * {@link #duplicateReplySource}).
 */
public class PegasusServer implements Node, NodeCounters {
    /** Load is the number of requests in the current and the previous window of this length. */
    static final long LOAD_WINDOW_NANOS = 100_000;

    private final PegasusRack rack;
    private final RecordStoreOpener opener;
    private NodeContext ctx;
    private RecordStore store;
    private ClientTable table;
    private int myIp;
    private int myIndex;
    private long windowStart;
    private int windowRequests;
    private int previousWindowRequests;
    private final Map<String, Long> counters = new TreeMap<>();

    private final AtMostOnceMonitor monitor;
    /** This server's place in the chains of a multi-rack deployment (§7); null in a one-rack deployment. */
    private final ChainRole chain;

    public PegasusServer(PegasusRack rack, RecordStoreOpener opener) {
        this(rack, opener, new AtMostOnceMonitor());
    }

    /** @param monitor where this server reports the writes it executes as a detector */
    public PegasusServer(PegasusRack rack, RecordStoreOpener opener, AtMostOnceMonitor monitor) {
        this(rack, opener, monitor, null);
    }

    /**
     * @param rack  this server's own rack (its switch's replica sets index its servers)
     * @param chain its place in the chains across racks (§7), or null for a one-rack deployment
     */
    public PegasusServer(PegasusRack rack, RecordStoreOpener opener, AtMostOnceMonitor monitor, ChainRole chain) {
        this.rack = rack;
        this.opener = opener;
        this.monitor = monitor;
        this.chain = chain;
    }

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        this.myIndex = rack.indexOf(context.hostNumber());
        if (myIndex < 0) {
            throw new IllegalStateException("host " + context.hostNumber() + " is not a server of " + rack.servers());
        }
        this.myIp = RackAddressing.hostIp(context.hostNumber());
        this.store = opener.open(context.durable().directory());
        this.table = new ClientTable(context.durable());
        if (chain != null) {
            chain.view().load(context.durable());
        }
        this.maxVersion = context.durable().get(MAX_VERSION_KEY).map(b -> java.nio.ByteBuffer.wrap(b).getLong()).orElse(0L);
        for (String c : List.of("requests", "malformed", "applied", "superseded", "duplicates", "forwarded",
                "virtualWrites", "badOp", "repliesIgnored", "passedDownChain", "staleRequests")) {
            counters.put(c, 0L);
        }
        context.log("pegasus server h" + context.hostNumber() + " (index " + myIndex + ") up, incarnation "
                + context.incarnation() + ", " + store.size() + " keys");
    }

    @Override
    public void onTimer(long timerId) {}

    @Override
    public void onPacket(byte[] bytes) {
        PegasusPacket p = PegasusPacket.decodeOrDrop(bytes,
                f -> f.dstIp() == myIp && f.dstPort() == PegasusOp.PORT, () -> count("malformed"));
        if (p == null) {
            return;
        }
        InnetMessage m = p.message();
        if (m.isReply()) {
            // a replica's answer to a write this server forwarded: it has passed the switch (Algorithm 2),
            // nothing is left to do; answering it would start an endless exchange of error replies
            count("repliesIgnored");
            return;
        }
        count("requests");
        countLoad();
        switch (m.op()) {
            case PegasusOp.READ -> read(p);
            case PegasusOp.WRITE, PegasusOp.DELETE -> write(p);
            case PegasusOp.REPLICATE -> replicate(p);
            case PegasusOp.VIRTUAL_WRITE -> virtualWrite(p);
            case PegasusOp.TABLE_READ -> send(p.frame(), PegasusPacket.message(PegasusOp.TABLE_READ_REPLY, 0,
                    KvStatus.OK, m.reqId(), m.key(), 0, ext(), ClientTable.encode(table.entriesFor(m.key()))));
            case PegasusOp.TABLE_MERGE -> tableMerge(p);
            case PegasusOp.MAX_VERSION -> send(p.frame(), PegasusPacket.message(PegasusOp.MAX_VERSION_REPLY, 0,
                    KvStatus.OK, m.reqId(), m.key(), maxVersion(), ext(), new byte[0]));
            case PegasusOp.CHAIN_CONFIG -> {
                if (chain == null) {
                    badOp(p);
                } else {
                    chainConfig(p);
                }
            }
            default -> badOp(p);
        }
    }

    private void badOp(PegasusPacket p) {
        InnetMessage m = p.message();
        count("badOp");
        send(p.frame(), PegasusPacket.message(m.op() | InnetMessage.REPLY_BIT, 0, KvStatus.BAD_OP, m.reqId(), m.key(), 0,
                ext(), new byte[0]));
    }

    /** A reconfiguration of the chains (§7): adopted if newer, acknowledged with the epoch held. */
    private void chainConfig(PegasusPacket p) {
        send(p.frame(), chain.view().onAnnouncement(p.message(), ext()));
    }

    /** ServerWrite with the detector's duty (§6.4) when the switch flagged this server as detector. */
    private void write(PegasusPacket p) {
        InnetMessage m = p.message();
        UdpFrame f = p.frame();
        int replyOp = PegasusOp.replyOf(m.op());
        if (p.ext().detector()) {
            if (table.recordsNewerThan(f.srcIp(), f.srcPort(), m.reqId())) {
                // a late copy of a request older than the client's recorded one: the client has moved on, and
                // executing it would overwrite the entry its newer request needs (a retry of that one would then
                // execute twice; found by PegasusChainTest's AtMostOnceMonitor). Dropped, unanswered.
                count("staleRequests");
                ctx.trace(writeEvent(f, m, p.ext(), "stale"));
                return;
            }
            Optional<ClientTable.Entry> seen = recordedRequest(f, m);
            if (seen.isPresent()) {
                // a duplicate or retry: answered with the recorded version, neither executed nor forwarded
                count("duplicates");
                long recorded = seen.get().version();
                if (passDownChain(f, m, recorded)) {
                    // §7: not the tail: the write may have been lost further down, so it goes on again,
                    // under the version it was executed with here (the next rack's detector answers a
                    // duplicate there)
                    return;
                }
                int source = duplicateReplySource(m.key(), recorded);
                ctx.trace(writeEvent(f, m, p.ext(), "duplicate").with("replyVer", recorded).with("replySrc", source + 1L));
                send(f, PegasusPacket.message(replyOp, 0, KvStatus.OK, m.reqId(), m.key(), recorded,
                        PegasusExt.reply(source, load()), new byte[0]));
                return;
            }
        }
        boolean applied = apply(m.key(), recordOf(m), m.seq());
        ctx.trace(writeEvent(f, m, p.ext(), applied ? "applied" : "superseded").with("replyVer", m.seq())
                .with("replySrc", myIndex + 1L));
        if (p.ext().detector()) {
            monitor.executed(f.srcIp(), f.srcPort(), m.reqId(), m.seq());
            table.record(new ClientTable.Entry(f.srcIp(), f.srcPort(), m.reqId(), m.key(), m.seq()));
            forward(m, p.ext().fwd());
        }
        if (passDownChain(f, m, m.seq())) {
            return; // §7: the tail answers the client
        }
        send(f, PegasusPacket.message(replyOp, 0, KvStatus.OK, m.reqId(), m.key(), m.seq(), ext(), new byte[0]));
    }

    /**
     * §7: a write executed by a rack that is not the key's tail goes to the key's home in the next rack,
     * carrying the head switch's version (the next switch keeps it, P-16) and the client's address and
     * port as its source, so the next rack's detector keys its client table on the client, and the tail
     * answers the client directly. Returns false at the tail (and in a one-rack deployment).
     */
    private boolean passDownChain(UdpFrame request, InnetMessage m, long version) {
        if (chain == null) {
            return false;
        }
        int next = chain.nextHop(m.key());
        if (next == 0) {
            return false;
        }
        count("passedDownChain");
        InnetMessage passed = PegasusPacket.message(m.op(), m.flags() & PegasusOp.FLAG_DELETED, 0, m.reqId(), m.key(),
                version, PegasusExt.NONE, m.value());
        ctx.network().send(new UdpFrame(RackAddressing.hostMac(next), RackAddressing.hostMac(ctx.hostNumber()),
                request.srcIp(), RackAddressing.hostIp(next), request.srcPort(), PegasusOp.PORT, passed.encode()));
        return true;
    }

    /** The client table's entry for this request, if it is the client's recorded one (a retry). */
    protected Optional<ClientTable.Entry> recordedRequest(UdpFrame f, InnetMessage m) {
        return table.lookup(f.srcIp(), f.srcPort(), m.reqId());
    }

    /**
     * Whom a duplicate's reply names: this server if it stores the recorded version (or newer), else
     * no server (0), because the entry may have come with a migrated table and the version live on a
     * server the directory does not know (the spec's rsrc; Unvouched in Pegasus.tla).
     */
    protected int duplicateReplySource(byte[] key, long recorded) {
        long mine = stored(key).map(StoredRecord::seq).orElse(0L);
        return mine >= recorded ? myIndex : -1;
    }

    /** A forwarded write: applied if higher, answered with its version and this server. */
    private void replicate(PegasusPacket p) {
        InnetMessage m = p.message();
        boolean applied = apply(m.key(), recordOf(m), m.seq());
        ctx.trace(writeEvent(p.frame(), m, p.ext(), applied ? "applied" : "superseded").with("replyVer", m.seq())
                .with("replySrc", myIndex + 1L));
        send(p.frame(), PegasusPacket.message(PegasusOp.REPLICATE_REPLY, 0, KvStatus.OK, m.reqId(), m.key(), m.seq(),
                ext(), new byte[0]));
    }

    /** ServerVirtualWrite (§6.3): raise the version to the one given, keep the value, copy it to fwd. */
    private void virtualWrite(PegasusPacket p) {
        InnetMessage m = p.message();
        count("virtualWrites");
        Optional<StoredRecord> cur = stored(m.key());
        long raised = Math.max(cur.map(StoredRecord::seq).orElse(0L), m.seq());
        StoredRecord record = cur.isEmpty() || cur.get().deleted() ? StoredRecord.tombstone(raised)
                : StoredRecord.value(cur.get().value(), raised);
        apply(m.key(), record, raised);
        ctx.trace(TraceEvent.of(PegasusTraceEvents.SERVER_VIRTUAL_WRITE).with("reqId", m.reqId()).with("key", m.keyHex())
                .with("ver", m.seq()).with("raised", raised).with("fwd", p.ext().fwd()));
        int flags = record.deleted() ? PegasusOp.FLAG_DELETED : 0;
        forward(PegasusPacket.message(PegasusOp.REPLICATE, flags, 0, m.reqId(), m.key(), raised, PegasusExt.NONE,
                record.value()), p.ext().fwd());
        send(p.frame(), PegasusPacket.message(PegasusOp.VIRTUAL_WRITE_REPLY, 0, KvStatus.OK, m.reqId(), m.key(), raised,
                ext(), new byte[0]));
    }

    private void tableMerge(PegasusPacket p) {
        InnetMessage m = p.message();
        List<ClientTable.Entry> entries;
        try {
            entries = ClientTable.decode(m.value());
        } catch (IllegalArgumentException e) {
            count("malformed");
            send(p.frame(), PegasusPacket.message(PegasusOp.TABLE_MERGE_REPLY, 0, KvStatus.BAD_REQUEST, m.reqId(),
                    m.key(), 0, ext(), new byte[0]));
            return;
        }
        table.merge(entries);
        send(p.frame(), PegasusPacket.message(PegasusOp.TABLE_MERGE_REPLY, 0, KvStatus.OK, m.reqId(), m.key(), 0, ext(),
                new byte[0]));
    }

    /** Sends the write, with its version, to every server in {@code fwd} but this one. */
    private void forward(InnetMessage m, long fwd) {
        InnetMessage copy = PegasusPacket.message(PegasusOp.REPLICATE, m.op() == PegasusOp.DELETE ? PegasusOp.FLAG_DELETED
                : m.flags() & PegasusOp.FLAG_DELETED, 0, m.reqId(), m.key(), m.seq(), PegasusExt.NONE, m.value());
        for (int i = 0; i < rack.servers().size(); i++) {
            if (i != myIndex && (fwd & (1L << i)) != 0) {
                int host = rack.hostOf(i);
                count("forwarded");
                ctx.network().send(new UdpFrame(RackAddressing.hostMac(host), RackAddressing.hostMac(ctx.hostNumber()),
                        myIp, RackAddressing.hostIp(host), PegasusOp.PORT, PegasusOp.PORT, copy.encode()));
            }
        }
    }

    /** Stores the record if {@link #accepts} says so; counts applied and superseded writes. */
    private boolean apply(byte[] key, StoredRecord record, long version) {
        noteVersion(version);
        if (!accepts(stored(key), version)) {
            count("superseded");
            return false;
        }
        store.apply(key, record, RecordStore.Ordering.ARRIVAL);
        count("applied");
        return true;
    }

    /** ServerRead: value and version as stored. */
    private void read(PegasusPacket p) {
        InnetMessage m = p.message();
        Optional<StoredRecord> r = stored(m.key());
        ctx.trace(TraceEvent.of(PegasusTraceEvents.SERVER_READ).with("src", RackAddressing.hostOfIp(p.frame().srcIp()))
                .with("reqId", m.reqId()).with("key", m.keyHex()).with("replyVer", r.map(StoredRecord::seq).orElse(0L))
                .with("found", r.isPresent()).with("deleted", r.isPresent() && r.get().deleted())
                .with("value", r.isPresent() && !r.get().deleted() ? java.util.HexFormat.of().formatHex(r.get().value()) : ""));
        send(p.frame(), reply(p, PegasusOp.READ_REPLY, r));
    }

    /** The trace event of a WRITE, DELETE or REPLICATE this server handled (outcome and reply added by the caller). */
    private static TraceEvent writeEvent(UdpFrame f, InnetMessage m, PegasusExt ext, String outcome) {
        return TraceEvent.of(PegasusTraceEvents.SERVER_WRITE).with("op", m.op())
                .with("src", RackAddressing.hostOfIp(f.srcIp())).with("reqId", m.reqId()).with("key", m.keyHex())
                .with("ver", m.seq()).with("det", ext.detector()).with("fwd", ext.fwd())
                .with("deleted", m.op() == PegasusOp.DELETE || (m.flags() & PegasusOp.FLAG_DELETED) != 0)
                .with("value", java.util.HexFormat.of().formatHex(m.value())).with("outcome", outcome);
    }

    /** §6.2.1: only a higher version replaces the stored one. Overridden only by seeded-bug tests. */
    protected boolean accepts(Optional<StoredRecord> current, long version) {
        return current.isEmpty() || version > current.get().seq();
    }

    private static StoredRecord recordOf(InnetMessage m) {
        boolean deleted = m.op() == PegasusOp.DELETE || (m.flags() & PegasusOp.FLAG_DELETED) != 0;
        return deleted ? StoredRecord.tombstone(m.seq()) : StoredRecord.value(m.value(), m.seq());
    }

    private InnetMessage reply(PegasusPacket p, int op, Optional<StoredRecord> r) {
        InnetMessage m = p.message();
        // the answer to the controller's read keeps its flag, so the switch leaves the directory alone (P-22)
        PegasusExt e = ext();
        if ((p.ext().pflags() & PegasusExt.FLAG_CONTROLLER_READ) != 0) {
            e = new PegasusExt(e.fwd(), e.load(), e.server(), PegasusExt.FLAG_CONTROLLER_READ);
        }
        if (r.isEmpty() || r.get().deleted()) {
            return PegasusPacket.message(op, r.isPresent() ? PegasusOp.FLAG_DELETED : 0, KvStatus.NOT_FOUND, m.reqId(),
                    m.key(), r.map(StoredRecord::seq).orElse(0L), e, new byte[0]);
        }
        return PegasusPacket.message(op, 0, KvStatus.OK, m.reqId(), m.key(), r.get().seq(), e, r.get().value());
    }

    /**
     * Keeps the highest version this server has been sent (applied, superseded or recorded) durably, so
     * that a restarted switch can be told to stamp above everything any server holds (switch recovery,
     * docs/pegasus.md). Synced with the write it covers.
     */
    private void noteVersion(long version) {
        if (version > maxVersion) {
            maxVersion = version;
            ctx.durable().put(MAX_VERSION_KEY, java.nio.ByteBuffer.allocate(8).putLong(version).array());
            ctx.durable().sync();
        }
    }

    private static final String MAX_VERSION_KEY = "max-version";
    private long maxVersion;

    private long maxVersion() {
        return maxVersion;
    }

    private Optional<StoredRecord> stored(byte[] key) {
        return store.get(key);
    }

    private PegasusExt ext() {
        return PegasusExt.reply(myIndex, load());
    }

    private void countLoad() {
        long now = ctx.clock().nowNanos();
        if (now - windowStart >= LOAD_WINDOW_NANOS) {
            previousWindowRequests = now - windowStart >= 2 * LOAD_WINDOW_NANOS ? 0 : windowRequests;
            windowRequests = 0;
            windowStart = now - (now % LOAD_WINDOW_NANOS);
        }
        windowRequests++;
    }

    /** Requests in the current and the previous window: what the switch compares (§4.4). */
    int load() {
        return windowRequests + previousWindowRequests;
    }

    private void send(UdpFrame request, InnetMessage reply) {
        ctx.network().send(request.reply(reply.encode()));
    }

    private void count(String name) {
        counters.merge(name, 1L, Long::sum);
    }

    @Override
    public Map<String, Long> counters() {
        return new TreeMap<>(counters);
    }

    /** This server's index in the rack (its bit in the switch's replica sets). */
    protected final int myIndex() {
        return myIndex;
    }

    /** For tests: the stored record of a key. */
    public Optional<StoredRecord> storedRecord(byte[] key) {
        return store.get(key);
    }
}
