package dev.innet.farreach.controller;

import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.cache.CacheControlNames;
import dev.innet.kv.cache.CacheController;
import dev.innet.kv.cache.CacheControllerConfig;
import dev.innet.kv.cache.CacheRegisters;
import dev.innet.kv.cache.ControlProcedure;
import dev.innet.kv.cache.SequenceBase;
import dev.innet.kv.store.StoredRecord;
import dev.innet.protocol.RackPorts;
import dev.innet.sim.NodeContext;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.wire.InnetMessage;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * FarReach's controller and switch OS (§3.2-3.4): the cache controller's loop with FarReach's
 * procedures, one file each, named after the spec's actions (specs/farreach/FarReach.tla; the mapping
 * is {@link dev.innet.farreach.spec.SpecMapping}): {@link Admit}, {@link Evict}, {@link Snap},
 * {@link Recover}, and {@link Relearn} after a controller restart. It also keeps what spans procedures:
 * the last snapshot (durably), the originals the switch reports during a snapshot, and the records
 * evicted since the last snapshot.
 *
 * <p>The procedure factories ({@link #newRecover}, {@link #newSnap}, ...) are where tests inject a
 * seeded bug: a test subclass returns a procedure subclass that breaks one rule. Production code has
 * no bug switches.
 */
public class FarReachController extends CacheController {
    private static final String DURABLE_SNAPSHOT = "snapshot";
    /** How many 2^24-number ranges switch incarnations and range advances have taken (durable). */
    public static final String DURABLE_SEQUENCE_RANGES = "sequence-ranges";

    private final FarReachSettings settings;
    private final ControllerHooks hooks;
    private final FarReachStats stats;

    private SnapshotCodec.Snapshot lastSnapshot;
    private long snapshotTimer;
    private boolean snapshotDue;
    /** The epoch of the snapshot in progress, 0 when none. */
    private long snapshotInProgress;
    private final Map<String, CachedRecord> originals = new HashMap<>();
    private final TreeMap<String, CachedRecord> evictedSinceSnapshot = new TreeMap<>();
    private long recoveryRound;
    /** The procedure whose request is being retransmitted (an eviction's store, an admission's probe). */
    private ControlProcedure retrying;
    private Runnable retransmission;
    /** All 256 sequence ranges are taken (see {@link AdvanceSequenceRange}). */
    private boolean sequenceSpaceExhausted;
    private long retryTimer;

    public FarReachController(CacheControllerConfig config, FarReachSettings settings, SwitchHandle handle,
            ControllerHooks hooks) {
        this(config, settings, handle, hooks, new FarReachStats());
    }

    private FarReachController(CacheControllerConfig config, FarReachSettings settings, SwitchHandle handle,
            ControllerHooks hooks, FarReachStats stats) {
        super(config, handle, stats);
        this.settings = settings;
        this.hooks = hooks;
        this.stats = stats;
    }

    // ------------------------------------------------------------------ procedure factories (test seams)

    protected Admit newAdmit(int index, InnetMessage report) {
        return new Admit(this, index, report);
    }

    /** An admission whose fill floor is known without probing the server (preloading, recovery). */
    protected Admit newAdmit(int index, InnetMessage report, long fillFloor) {
        return new Admit(this, index, report, fillFloor);
    }

    protected Evict newEvict(int index, byte[] key, boolean resumeAtStore) {
        return new Evict(this, index, key, resumeAtStore);
    }

    protected Snap newSnap() {
        return new Snap(this);
    }

    protected Recover newRecover(boolean resumeAtCollection) {
        return new Recover(this, resumeAtCollection);
    }

    protected AdvanceSequenceRange newAdvanceSequenceRange() {
        return new AdvanceSequenceRange(this);
    }

    /**
     * Which slot a snapshot loads next: a position in {@code unloaded} (the slots cached at the snapshot
     * point and not loaded yet), or -1 to end this control step's batch. {@code loadedThisStep} records
     * were loaded in this step already. FarReach loads in directory order, {@link Snap#LOADS_PER_STEP}
     * per step; the order does not matter to the snapshot (each record is either loaded unchanged or
     * replaced by its reported original). The conformance replay
     * ({@code dev.innet.farreach.spec.FarReachReplay}) overrides it to load exactly the one record the
     * spec's {@code SnapLoad(k)} names, in the spec's step.
     */
    protected int nextSnapshotLoad(List<Integer> unloaded, int loadedThisStep) {
        return loadedThisStep < Snap.LOADS_PER_STEP ? 0 : -1;
    }

    // ------------------------------------------------------------------ the loop's extension points

    @Override
    protected void onStarted(NodeContext context) {
        this.lastSnapshot = context.durable().get(DURABLE_SNAPSHOT).map(SnapshotCodec::decode).orElse(null);
        if (snapshots()) {
            snapshotTimer = context.timers().schedule(settings.snapshotPeriodNanos());
        }
    }

    private boolean snapshots() {
        return settings.snapshotPeriodNanos() > 0;
    }

    @Override
    protected ControlProcedure admission(int index, InnetMessage report) {
        return newAdmit(index, report);
    }

    /**
     * Preloading runs at the first switch's bring-up, before any GET_FOR_CACHE of the key can exist: every
     * reply that may reach the record comes from a read sent after the install, so it carries the server's
     * record at or after the install, and 0 is a sound fill floor (no probe, which could not be waited for).
     */
    @Override
    protected ControlProcedure admissionAtOnce(int index, InnetMessage report) {
        return newAdmit(index, report, 0);
    }

    @Override
    protected ControlProcedure eviction(int index, byte[] key) {
        return newEvict(index, key, false);
    }

    /** A restarted switch (not the first bring-up) is recovered with zero loss before clients are served. */
    @Override
    protected ControlProcedure freshSwitchProcedure(SwitchControl control, long bringUp) {
        if (bringUp == 1) {
            if (context().durable().get(DURABLE_SEQUENCE_RANGES).isEmpty()) {
                sequenceRangesTaken(1); // the first switch numbers from 0: range 0
            }
            return null;
        }
        return newRecover(false);
    }

    /**
     * The base of the next unused 2^24-number range, now taken (durably, before any number of it is
     * assigned): a restarted switch's (Recover) or the running switch's when a slot reached the end of
     * its range (AdvanceSequenceRange). Every number of it exceeds every number of the ranges before.
     */
    long takeSequenceRange() {
        long taken = sequenceRangesTaken();
        sequenceRangesTaken(taken + 1);
        return SequenceBase.ofRange(taken);
    }

    /**
     * The base of the range taken last: during a recovery, the restarted switch's own base, since its gate
     * keeps every write from being numbered (and so any range from being advanced) until it opens.
     */
    long currentSequenceBase() {
        return SequenceBase.ofRange(sequenceRangesTaken() - 1);
    }

    /** Whether a 2^24 range is left before the 32-bit wrap. */
    boolean sequenceRangeLeft() {
        return sequenceRangesTaken() < SequenceBase.RANGES;
    }

    /** Every range is taken: stop asking (the switch keeps refusing exhausted slots' writes). */
    void sequenceSpaceExhausted() {
        if (!sequenceSpaceExhausted) {
            sequenceSpaceExhausted = true;
            context().log("32-bit sequence numbers exhausted: writes of exhausted slots are refused");
        }
    }

    private long sequenceRangesTaken() {
        // before this counter existed the ranges taken were the bring-ups
        return context().durable().get(DURABLE_SEQUENCE_RANGES).map(b -> java.nio.ByteBuffer.wrap(b).getLong())
                .orElse(Math.max(1, bringUps() - 1));
    }

    private void sequenceRangesTaken(long n) {
        context().durable().put(DURABLE_SEQUENCE_RANGES, java.nio.ByteBuffer.allocate(8).putLong(n).array());
        context().durable().sync();
    }

    @Override
    protected void programFreshSwitch(SwitchControl control) {
        super.programFreshSwitch(control);
        control.cloneSessionSet(FarReachControlNames.CPU_CLONE_SESSION, RackPorts.CPU_PORT);
    }

    @Override
    protected void relearn(SwitchControl control, boolean afterControllerRestart) {
        new Relearn(this).run(control, afterControllerRestart);
    }

    @Override
    protected ControlProcedure nextProtocolProcedure() {
        if (!sequenceSpaceExhausted && handle.isUp()
                && handle.control().registerRead(FarReachControlNames.SEQ_RANGE_EXHAUSTED, 0).signum() != 0) {
            return newAdvanceSequenceRange();
        }
        if (snapshotDue && snapshots()) {
            snapshotDue = false;
            return newSnap();
        }
        return null;
    }

    @Override
    protected boolean protocolWorkPending() {
        return snapshotDue;
    }

    @Override
    protected boolean onProtocolMessage(InnetMessage msg) {
        if (msg.op() != KvOp.SNAPSHOT_ORIGINAL) {
            return false;
        }
        // §3.4 Figure 6 (2): the record as it was at the snapshot point, before its first change.
        stats.snapshotOriginals++;
        if (snapshotInProgress != 0) { // else a late report of an abandoned snapshot
            CachedRecord original = new CachedRecord(msg.key(), StoredRecord.carriedBy(msg));
            originals.putIfAbsent(original.keyHex(), original);
        }
        return true;
    }

    @Override
    protected void onProtocolTimer(long timerId) {
        if (timerId == retryTimer && retrying != null && currentTask() == retrying) {
            retransmission.run();
        } else if (timerId == snapshotTimer) {
            snapshotDue = true;
            snapshotTimer = ctx.timers().schedule(settings.snapshotPeriodNanos());
        }
    }

    @Override
    protected void procedureStarted(String procedure, long nowNanos) {
        hooks.procedureStarted(procedure, nowNanos);
    }

    // ------------------------------------------------------------------ state the procedures share

    ControllerHooks hooks() {
        return hooks;
    }

    /** This controller's counters, FarReach's included. */
    public FarReachStats stats() {
        return stats;
    }

    CacheControllerConfig config() {
        return config;
    }

    /** The last completed snapshot (kept durably), or null before the first. */
    public SnapshotCodec.Snapshot lastSnapshot() {
        return lastSnapshot;
    }

    void snapshotCompleted(SnapshotCodec.Snapshot snapshot) {
        lastSnapshot = snapshot;
        ctx.durable().put(DURABLE_SNAPSHOT, SnapshotCodec.encode(snapshot));
        ctx.durable().sync();
        snapshotInProgress = 0;
    }

    void snapshotStarted(long epoch) {
        originals.clear();
        snapshotInProgress = epoch;
    }

    void snapshotAbandoned() {
        snapshotInProgress = 0;
    }

    Map<String, CachedRecord> originals() {
        return originals;
    }

    TreeMap<String, CachedRecord> evictedSinceSnapshot() {
        return evictedSinceSnapshot;
    }

    long nextRecoveryRound() {
        return ++recoveryRound;
    }

    /**
     * Runs {@code retransmission} after the retry period ({@code evictRetryNanos}, used for every control
     * request a procedure waits on), if the procedure running now is still the one that asked.
     */
    void scheduleRetry(Runnable retransmission) {
        this.retrying = currentTask();
        this.retransmission = retransmission;
        retryTimer = ctx.timers().schedule(settings.evictRetryNanos());
    }

    void cancelRetry() {
        ctx.timers().cancel(retryTimer);
        retrying = null;
        retransmission = null;
    }

    /** The record in slot {@code index} as the switch holds it. */
    public static StoredRecord readRecord(SwitchControl c, int index) {
        long seq = c.registerRead(CacheControlNames.RECORD_SEQ, index).longValue();
        if (c.registerRead(FarReachControlNames.RECORD_DELETED, index).signum() != 0) {
            return StoredRecord.tombstone(seq);
        }
        return StoredRecord.value(CacheRegisters.readValue(c, index), seq);
    }

    /**
     * Re-admits {@code r} at once, as a hot report carrying the record would (recovery's re-admission), with
     * {@code fillFloor} as the seq its server's reply must reach to make it latest (FR-11). Recovery passes
     * the fence: every fenced server reports its records at the fence or above, and no write is numbered in
     * the new incarnation before its gate opens, so the key's writes are all still to come and each will
     * pass the switch (record_seen_seq).
     */
    void admitNow(SwitchControl c, CachedRecord r, long fillFloor) {
        admitAtOnce(c, new InnetMessage(KvOp.HOT_REPORT, r.record().deleted() ? KvOp.FLAG_DELETED : 0,
                r.record().deleted() ? KvStatus.NOT_FOUND : KvStatus.OK, 0, r.key(), r.seq(), new byte[0],
                r.record().value()), (index, report) -> newAdmit(index, report, fillFloor));
    }

    /** Called by recovery before it programs the switch. */
    void programRecoveredSwitch(SwitchControl c) {
        programFreshSwitch(c);
    }

    void queueResumed(ControlProcedure p) {
        resumed.add(p);
    }

    void clearResumed() {
        resumed.clear();
    }
}
