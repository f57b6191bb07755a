package dev.innet.farreach.controller;

import dev.innet.farreach.trace.FarReachTraceEvents;
import dev.innet.sim.TraceEvent;
import dev.innet.kv.KvOp;
import dev.innet.kv.cache.ControlProcedure;
import dev.innet.kv.cache.SequenceBase;
import dev.innet.kv.store.StoredRecord;
import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.UdpFrame;
import dev.innet.farreach.wire.SnapshotCoverage;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Zero-loss recovery of a restarted switch, §3.4; the spec's {@code Recover}: gate client requests,
 * give this switch incarnation a sequence-number base above every number used before, install
 * forwarding, collect every client's preserved records, replay the newest record per key to its server
 * (servers keep it only if newer), fence every server at the new base (records numbered below it are
 * refused from then on, and what a server holds reads as at least the base), re-admit the snapshot's
 * records as outdated, tell clients which preserved records the servers now hold (they release them),
 * and open the gate.
 */
public class Recover implements ControlProcedure {
    private static final long RESEND_NANOS = 1_000_000;

    protected final FarReachController controller;
    private int stage;
    private long started;
    private long round;
    private long nextResend;
    private long nextSilenceReport;
    /** Per client, how many records its PRESERVED_END said it holds. */
    private final Map<Integer, Long> announced = new TreeMap<>();
    /**
     * Per client, the keys of the records received from it (a client preserves at most one record per key).
     * Keys, not a count, because links duplicate records and lose some, and each re-request resends all.
     */
    private final Map<Integer, Set<String>> received = new TreeMap<>();
    private final TreeMap<String, CachedRecord> newest = new TreeMap<>();
    private final TreeMap<Long, UdpFrame> unacknowledged = new TreeMap<>();
    private int replayed;

    /** @param resumeAtCollection the previous controller crashed during a recovery: the gate is already closed */
    protected Recover(FarReachController controller, boolean resumeAtCollection) {
        this.controller = controller;
        this.stage = resumeAtCollection ? 1 : 0;
    }

    @Override
    public boolean step(SwitchControl c) {
        long now = controller.context().clock().nowNanos();
        switch (stage) {
            case 0 -> {
                // The gate first: a restarted switch forwards nothing until routes exist, so no client
                // request can slip through before it.
                c.registerWrite(FarReachControlNames.RECOVERING, 0, BigInteger.ONE);
                controller.context().trace(TraceEvent.of(FarReachTraceEvents.SWITCH_CRASH_SEEN));
                raiseSequenceCounters(c, controller.takeSequenceRange());
                controller.programRecoveredSwitch(c);
                stage = 1;
            }
            case 1 -> {
                started = now;
                round = controller.nextRecoveryRound();
                announced.clear();
                received.clear();
                newest.clear();
                requestPreserved(now);
                nextSilenceReport = now + controller.config().clientSilenceReportNanos();
                stage = 2;
            }
            case 2 -> {
                var clients = controller.config().clients();
                boolean allAnswered = clients.stream()
                        .allMatch(this::hasAnswered);
                if (!allAnswered && !proceedWithoutSilentClients(now - started)) {
                    // Every client must answer, however long that takes: a silent client may be cut off
                    // by a partition rather than crashed, and then it holds the only copy of writes the
                    // switch acknowledged (going on without it resurrected overwritten values: found by
                    // the Jepsen campaign, docs/jepsen.md). The gate stays closed meanwhile, so the rack
                    // is unavailable, not wrong. A crashed client is restarted and answers with what it
                    // kept, nothing: the documented client-and-switch crash limitation.
                    if (now >= nextResend) {
                        requestPreserved(now);
                    }
                    if (now >= nextSilenceReport) {
                        reportSilentClients(now);
                    }
                    return false;
                }
                SnapshotCodec.Snapshot last = controller.lastSnapshot();
                if (last != null) {
                    for (CachedRecord r : last.records()) {
                        keepNewest(r);
                    }
                }
                for (CachedRecord r : newest.values()) {
                    long reqId = controller.nextRequestId();
                    InnetMessage store = new InnetMessage(KvOp.RECOVER_STORE, r.record().deleted() ? KvOp.FLAG_DELETED : 0,
                            0, reqId, r.key(), r.seq(), new byte[0], r.record().value());
                    UdpFrame f = controller.frameTo(controller.ring().ownerOf(r.key()), store);
                    unacknowledged.put(reqId, f);
                    controller.context().network().send(f);
                }
                replayed = newest.size();
                nextResend = now + RESEND_NANOS;
                stage = 3;
            }
            case 3 -> {
                if (!allAcknowledged(now)) {
                    return false;
                }
                // Every replayed record is held: now fence every server at this incarnation's base
                // (FencedRecordStore; the spec's Fenced), so what they hold can be made latest again.
                // After the replay, because a fenced server refuses every record numbered below the base,
                // and before the gate opens, so that every reply this incarnation acts on comes from a
                // fenced server.
                long fence = fenceBase();
                for (int server : controller.config().servers()) {
                    long reqId = controller.nextRequestId();
                    InnetMessage m = new InnetMessage(KvOp.SEQ_FENCE, 0, 0, reqId, new byte[InnetMessage.KEY_BYTES],
                            fence, new byte[0], new byte[0]);
                    UdpFrame f = controller.frameTo(server, m);
                    unacknowledged.put(reqId, f);
                    controller.context().network().send(f);
                }
                nextResend = now + RESEND_NANOS;
                stage = 4;
            }
            case 4 -> {
                if (!allAcknowledged(now)) {
                    return false;
                }
                // Re-admit the snapshot's records as they are in the snapshot, outdated (§3.4; the spec's
                // crec' = snap): reads stay conservative until a server's reply refreshes them, so a newer
                // record the servers now hold is never hidden by the older cached one. Each record's own
                // refresh bound is the fence, not its counter slot's: other keys' writes in the slot must not
                // keep it outdated (FarReachSharedSeqSlotTest).
                int readmitted = 0;
                SnapshotCodec.Snapshot last = controller.lastSnapshot();
                if (last != null) {
                    for (CachedRecord r : last.records()) {
                        if (controller.directory().isFull() || controller.directory().contains(r.key())) {
                            continue;
                        }
                        controller.admitNow(c, r, recoveredRecordBound(fenceBase()));
                        readmitted++;
                    }
                }
                releasePreserved();
                c.registerWrite(FarReachControlNames.RECOVERING, 0, BigInteger.ZERO);
                controller.stats().recoveries++;
                int answered = announced.size();
                controller.hooks().recovered(started, now, replayed, readmitted, answered);
                controller.context().trace(TraceEvent.of(FarReachTraceEvents.RECOVER_DONE).with("replayed", replayed)
                        .with("readmitted", readmitted));
                controller.context().log("recovered in " + (now - started) + " ns: " + replayed + " records replayed, "
                        + readmitted + " re-admitted, " + answered + "/" + controller.config().clients().size()
                        + " clients answered");
                return true;
            }
            default -> throw new IllegalStateException("recovery past its last stage");
        }
        return false;
    }

    /**
     * Whether every RECOVER_STORE (stage 3) or SEQ_FENCE (stage 4) sent has been acknowledged; resends the
     * others every {@link #RESEND_NANOS}. Waits for a crashed server as long as it takes: its records, or
     * its fence, are what the rack's consistency rests on.
     */
    private boolean allAcknowledged(long now) {
        if (unacknowledged.isEmpty()) {
            return true;
        }
        if (now >= nextResend) {
            unacknowledged.values().forEach(controller.context().network()::send);
            nextResend = now + RESEND_NANOS;
        }
        return false;
    }

    /**
     * Raises every sequence-number slot to at least {@code floor}: after a switch restart the counters
     * start at 0, and writes numbered below what servers already store would be ignored as stale
     * (docs/p4-programs.md, "After a switch (re)start").
     */
    protected void raiseSequenceCounters(SwitchControl c, long floor) {
        SequenceBase.raise(c, floor);
    }

    /**
     * A re-admitted record's fill floor (FR-11), the seq its server's reply must reach to make it latest: the
     * fence, since every fenced server reports its records at the fence or above, and every write of the key
     * in this incarnation comes later and passes the switch. No probe is needed. A seam for seeded-bug tests.
     */
    protected long recoveredRecordBound(long fence) {
        return fence;
    }

    /**
     * The seq every server is fenced at: this incarnation's base, the floor its counters were raised to.
     * A seam for the seeded bug that forgets the base (tests override this and {@link #raiseSequenceCounters}).
     */
    protected long fenceBase() {
        return incarnationBase();
    }

    /** This switch incarnation's sequence base: the floor its counters were raised to. */
    protected final long incarnationBase() {
        return controller.currentSequenceBase();
    }

    /**
     * Whether collection may end before every client answered. Never: a seam for the seeded bug that
     * takes silence for a crash after a while (what this procedure did before the Jepsen finding).
     */
    protected boolean proceedWithoutSilentClients(long waitedNanos) {
        return false;
    }

    private void reportSilentClients(long now) {
        List<Integer> silent = controller.config().clients().stream()
                .filter(h -> !hasAnswered(h))
                .toList();
        controller.stats().recoverySilentClientReports++;
        controller.context().log("recovery waiting " + (now - started) + " ns for the preserved records of clients "
                + silent);
        nextSilenceReport = now + controller.config().clientSilenceReportNanos();
    }

    /**
     * Whether every record the client announced has arrived. At least, not exactly: a client that crashed
     * and restarted between two answers announces fewer records than its first answer delivered (those it
     * lost), and the ones that arrived are still real.
     */
    private boolean hasAnswered(int client) {
        Long count = announced.get(client);
        return count != null && received.getOrDefault(client, Set.of()).size() >= count;
    }

    private void requestPreserved(long now) {
        for (int client : controller.config().clients()) {
            if (!hasAnswered(client)) {
                controller.sendControl(client, new InnetMessage(KvOp.PRESERVED_REQUEST, 0, 0, round,
                        new byte[InnetMessage.KEY_BYTES], 0, new byte[0], new byte[0]));
            }
        }
        nextResend = now + RESEND_NANOS;
    }

    /**
     * Every record replayed is now held by its server (acknowledged), and it is the newest of every
     * client's preserved record of its key: clients may release those (the spec's {@code pres'} = none
     * in Recover). The notice is a SNAPSHOT_DONE whose (key, seq) entries the servers hold; a client
     * releases a preserved record at or below its key's seq, so a write absorbed after the gate opens
     * (numbered from this incarnation's base, above every replayed seq) is kept.
     */
    private void releasePreserved() {
        List<SnapshotCoverage.Entry> entries = newest.values().stream()
                .map(r -> new SnapshotCoverage.Entry(r.key(), r.seq())).toList();
        for (byte[] chunk : SnapshotCoverage.encode(entries)) {
            for (int client : controller.config().clients()) {
                controller.sendControl(client, new InnetMessage(KvOp.SNAPSHOT_DONE, 0, 0, round,
                        new byte[InnetMessage.KEY_BYTES], 0, new byte[0], chunk));
            }
        }
    }

    private void keepNewest(CachedRecord r) {
        CachedRecord current = newest.get(r.keyHex());
        if (current == null || current.seq() < r.seq()) {
            newest.put(r.keyHex(), r);
        }
    }

    /** A record a client preserved: it competes with the snapshot's for the newest per key. */
    protected void keepPreserved(CachedRecord r) {
        keepNewest(r);
    }

    @Override
    public boolean onReply(InnetMessage msg) {
        switch (msg.op()) {
            case KvOp.PRESERVED_RECORD -> {
                if (msg.reqId() != round || stage != 2) {
                    return msg.reqId() < round; // an older round's leftovers are consumed and ignored
                }
                CachedRecord r = new CachedRecord(msg.key(), StoredRecord.carriedBy(msg));
                received.computeIfAbsent(controller.lastSender(), h -> new TreeSet<>()).add(r.keyHex());
                keepPreserved(r);
                return true;
            }
            case KvOp.PRESERVED_END -> {
                if (msg.reqId() == round && stage == 2) {
                    announced.put(controller.lastSender(), msg.seq());
                }
                return true;
            }
            case KvOp.RECOVER_STORE_REPLY, KvOp.SEQ_FENCE_REPLY -> {
                return unacknowledged.remove(msg.reqId()) != null;
            }
            default -> {
                return false;
            }
        }
    }
}
