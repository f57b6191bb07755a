package dev.innet.rack.controller;

import dev.innet.kv.ConsistentHashRing;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.SnapshotCoverage;
import dev.innet.kv.store.StoredRecord;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.SwitchControl;
import dev.innet.rack.CacheProgram;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.rack.switchos.ControlNames;
import dev.innet.rack.switchos.SwitchOs;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.RandomSource;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * The cache controller and switch OS of the key-value family (FarReach §3.2-3.3, NetCache as the
 * baseline), as an event-driven node on the switch's CPU port. It drives the switch only through the
 * target-neutral {@link SwitchControl}, one step per control-plane round trip
 * ({@link ControllerConfig#controlStepNanos}), so packets interleave with admissions and evictions
 * exactly where the protocol must tolerate it. Procedures and their order: docs/p4-programs.md.
 *
 * <p>One admission or eviction at a time, which is the spec's "at most one admission or eviction in
 * flight per key" made global (simpler, and the paper's controller is sequential too).
 */
public final class CacheController implements Node {
    private static final String DURABLE_BRING_UPS = "switch-bring-ups";
    private static final String DURABLE_SNAPSHOT = "snapshot";
    private static final String DURABLE_EPOCH = "snapshot-epoch";
    /** Records loaded per control step while taking a snapshot (one batch read, as P4Runtime allows). */
    private static final int SNAPSHOT_LOADS_PER_STEP = 32;
    /** How long the controller waits for clients, originals and acknowledgements before moving on. */
    private static final long WAIT_NANOS = 5_000_000;
    private static final long RESEND_NANOS = 1_000_000;

    private final ControllerConfig config;
    private final SwitchHandle handle;
    private final ControllerHooks hooks;

    private NodeContext ctx;
    private RandomSource random;
    private ConsistentHashRing ring;
    private int seenGeneration;
    private final TreeMap<Integer, byte[]> keyOfIndex = new TreeMap<>();
    private final Set<String> cachedKeys = new HashSet<>();
    private final ArrayDeque<Integer> freeIndices = new ArrayDeque<>();
    private final ArrayDeque<InnetMessage> admissions = new ArrayDeque<>();
    private final Set<String> queuedKeys = new HashSet<>();
    private final ArrayDeque<Task> resumed = new ArrayDeque<>();
    private Task task;
    private long tickTimer;
    private long resetTimer;
    private long evictRetryTimer;
    private long nextRequestId = 1;
    private final ControllerStats stats = new ControllerStats();

    // snapshots and recovery (FarReach §3.4)
    private long bringUps;
    private SnapshotCodec.Snapshot lastSnapshot;
    private long snapshotTimer;
    private boolean snapshotDue;
    private long snapshotInProgress;
    private final java.util.Map<String, CachedRecord> originals = new java.util.HashMap<>();
    private final TreeMap<String, CachedRecord> evictedSinceSnapshot = new TreeMap<>();
    private long recoveryRound;

    public CacheController(ControllerConfig config, SwitchHandle handle, ControllerHooks hooks) {
        this.config = config;
        this.handle = handle;
        this.hooks = hooks;
    }

    public CacheController(ControllerConfig config, SwitchHandle handle) {
        this(config, handle, ControllerHooks.NONE);
    }

    private boolean snapshots() {
        return config.program() == CacheProgram.FARREACH && config.snapshotPeriodNanos() > 0;
    }

    /** A multi-step control procedure: {@link #step} performs one step and says whether it finished. */
    private interface Task {
        boolean step(SwitchControl control);

        /** A control packet arrived; returns true if this task consumed it. */
        default boolean onReply(InnetMessage msg) {
            return false;
        }
    }

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        this.random = context.random().fork("controller");
        this.ring = new ConsistentHashRing(config.servers());
        this.resetTimer = context.timers().schedule(config.counterResetNanos());
        this.bringUps = context.durable().get(DURABLE_BRING_UPS).map(b -> java.nio.ByteBuffer.wrap(b).getLong()).orElse(0L);
        this.lastSnapshot = context.durable().get(DURABLE_SNAPSHOT).map(SnapshotCodec::decode).orElse(null);
        if (snapshots()) {
            snapshotTimer = context.timers().schedule(config.snapshotPeriodNanos());
        }
        scheduleTick(config.controlStepNanos());
        context.log("controller up (incarnation " + context.incarnation() + ", program " + config.program() + ")");
    }

    @Override
    public void onTimer(long timerId) {
        if (timerId == tickTimer) {
            tick();
        } else if (timerId == resetTimer) {
            resetCounters();
            resetTimer = ctx.timers().schedule(config.counterResetNanos());
        } else if (timerId == evictRetryTimer && task instanceof FarReachEviction e) {
            e.retransmit();
        } else if (timerId == snapshotTimer) {
            snapshotDue = true;
            snapshotTimer = ctx.timers().schedule(config.snapshotPeriodNanos());
        }
    }

    @Override
    public void onPacket(byte[] bytes) {
        InnetPacket packet;
        try {
            packet = InnetPacket.decode(bytes);
        } catch (WireException e) {
            stats.malformed++;
            return;
        }
        if (packet.frame().dstPort() != KvOp.CONTROL_PORT) {
            stats.malformed++;
            return;
        }
        InnetMessage msg = packet.message();
        lastSender = RackAddressing.hostOfIp(packet.frame().srcIp());
        if (task != null && task.onReply(msg)) {
            return;
        }
        switch (msg.op()) {
            case KvOp.HOT_REPORT -> onHotReport(msg);
            case KvOp.SNAPSHOT_ORIGINAL -> onSnapshotOriginal(msg);
            default -> stats.malformed++; // a late acknowledgement of a finished eviction, or stray traffic
        }
    }

    /** §3.4 Figure 6 (2): the record as it was at the snapshot point, before its first change. */
    private void onSnapshotOriginal(InnetMessage msg) {
        stats.snapshotOriginals++;
        if (snapshotInProgress == 0) {
            return; // a late report of an abandoned snapshot
        }
        CachedRecord original = new CachedRecord(msg.key(), StoredRecord.carriedBy(msg));
        originals.putIfAbsent(original.keyHex(), original);
    }

    private void onHotReport(InnetMessage report) {
        stats.hotReports++;
        String k = hex(report.key());
        if (!config.program().caches() || cachedKeys.contains(k) || queuedKeys.contains(k)
                || admissions.size() >= config.admissionQueue() || report.value().length > InnetMessage.MAX_CACHED_VALUE_BYTES) {
            stats.reportsIgnored++;
            return;
        }
        admissions.add(report);
        queuedKeys.add(k);
    }

    // ------------------------------------------------------------------ the work loop

    private void scheduleTick(long delay) {
        tickTimer = ctx.timers().schedule(delay);
    }

    private void tick() {
        if (!handle.isUp()) {
            scheduleTick(config.idlePollNanos());
            return;
        }
        SwitchControl control = handle.control();
        if (handle.generation() != seenGeneration) {
            adoptSwitch(control);
        }
        if (task == null) {
            task = nextTask(control);
            if (task != null) {
                hooks.procedureStarted(currentProcedure(), ctx.clock().nowNanos());
            }
        }
        if (task != null && task.step(control)) {
            task = null;
        }
        boolean busy = task != null || !admissions.isEmpty() || !resumed.isEmpty() || snapshotDue;
        scheduleTick(busy ? config.controlStepNanos() : config.idlePollNanos());
    }

    /**
     * A switch generation we have not seen: either the first switch, a restarted (empty) switch, or -
     * after a controller restart - a switch that kept running and whose cache we must relearn.
     */
    private void adoptSwitch(SwitchControl control) {
        boolean restartedController = seenGeneration == 0 && ctx.incarnation() > 0;
        seenGeneration = handle.generation();
        clearView();
        List<EntrySpec> forwarding = control.readEntries(ControlNames.IPV4_FORWARD);
        if (forwarding.isEmpty()) {
            // A fresh switch: every table and register is empty. Count the bring-up durably first: the
            // count decides the sequence-number base of this switch incarnation.
            bringUps++;
            ctx.durable().put(DURABLE_BRING_UPS, java.nio.ByteBuffer.allocate(8).putLong(bringUps).array());
            ctx.durable().sync();
            stats.switchBringUps++;
            if (config.program() == CacheProgram.FARREACH && bringUps > 1) {
                task = new Recovery(0); // a switch restart: zero-loss recovery before clients are served
                return;
            }
            programFreshSwitch(control);
            if (config.program().caches()) {
                preload(control);
            }
            ctx.log("switch generation " + seenGeneration + " programmed");
        } else if (config.program().caches()) {
            relearnCache(control, restartedController);
        }
    }

    /**
     * Admits the configured keys at once, with the same procedures as hot-key admission run to completion
     * (the servers are empty then, so each key starts as an outdated tombstone with seq 0: the first read
     * fetches the server's answer, the first write is absorbed).
     */
    private void preload(SwitchControl control) {
        for (byte[] key : config.preload()) {
            if (freeIndices.isEmpty() || cachedKeys.contains(hex(key))) {
                continue;
            }
            admitAtOnce(control, new InnetMessage(KvOp.HOT_REPORT, 0, KvStatus.NOT_FOUND, 0, key, 0, new byte[0],
                    new byte[0]));
        }
    }

    /** Takes a free index for {@code report}'s key and returns the program's admission procedure for it. */
    private Task admissionOf(InnetMessage report) {
        int index = freeIndices.poll();
        keyOfIndex.put(index, report.key());
        cachedKeys.add(hex(report.key()));
        return config.program() == CacheProgram.FARREACH ? new FarReachAdmission(index, report)
                : new NetCacheAdmission(index, report.key());
    }

    /** Runs an admission's steps back to back (preloading, recovery's re-admission): all are control writes. */
    private void admitAtOnce(SwitchControl control, InnetMessage report) {
        Task admission = admissionOf(report);
        while (!admission.step(control)) {
            // nothing to wait for between steps
        }
    }

    private void clearView() {
        keyOfIndex.clear();
        cachedKeys.clear();
        freeIndices.clear();
        resumed.clear();
        task = null;
        for (int i = 0; i < config.capacity(); i++) {
            freeIndices.add(i);
        }
    }

    /**
     * After a controller restart: the switch still holds the cache. Entries of an admission that did not
     * finish (not valid) are removed; an eviction that did not finish (to-be-evicted set) is resumed from
     * the point where it sends the record to the server, which is safe to repeat (servers keep the higher
     * sequence number).
     */
    /** Forwarding, clone session and the hot threshold of a switch that has just (re)started. */
    private void programFreshSwitch(SwitchControl control) {
        SwitchOs.bringUp(control, config.program(), config.hosts());
        if (config.program().caches() && config.hotThreshold() > 0) {
            control.registerWrite(ControlNames.HOT_THRESHOLD, 0, BigInteger.valueOf(config.hotThreshold()));
        }
    }

    private void relearnCache(SwitchControl control, boolean afterControllerRestart) {
        if (config.program() == CacheProgram.FARREACH) {
            // a snapshot the previous incarnation did not finish is abandoned; one still due comes later
            control.registerWrite(ControlNames.SNAPSHOT_EPOCH, 0, BigInteger.ZERO);
        }
        for (EntrySpec e : control.readEntries(ControlNames.CACHE_LOOKUP)) {
            byte[] key = keyBytes(((Match.Exact) e.match().get(0)).value());
            int index = e.args().get(0).intValue();
            boolean valid = control.registerRead(ControlNames.RECORD_VALID, index).signum() != 0;
            boolean evicting = config.program() == CacheProgram.FARREACH
                    && control.registerRead(ControlNames.RECORD_EVICTING, index).signum() != 0;
            freeIndices.remove(index);
            keyOfIndex.put(index, key);
            cachedKeys.add(hex(key));
            if (evicting) {
                resumed.add(new FarReachEviction(index, key, 1));
            } else if (!valid && config.program() == CacheProgram.FARREACH) {
                resumed.add(new Removal(index, key));
            }
        }
        if (config.program() == CacheProgram.FARREACH
                && control.registerRead(ControlNames.RECOVERING, 0).signum() != 0) {
            // the previous incarnation crashed during a recovery: run it again from the collection round
            resumed.clear();
            resumed.add(new Recovery(1));
        }
        ctx.log("relearned " + keyOfIndex.size() + " cached records (controller restart: " + afterControllerRestart + ")");
    }

    private Task nextTask(SwitchControl control) {
        if (!resumed.isEmpty()) {
            return resumed.poll();
        }
        if (snapshotDue && snapshots()) {
            snapshotDue = false;
            return new SnapshotTask();
        }
        if (admissions.isEmpty()) {
            return null;
        }
        if (freeIndices.isEmpty()) {
            return evictionOf(chooseVictim(control));
        }
        InnetMessage report = admissions.poll();
        queuedKeys.remove(hex(report.key()));
        if (cachedKeys.contains(hex(report.key()))) {
            return null;
        }
        return admissionOf(report);
    }

    /** Samples cached counters and picks the coldest record (§3.3, as NetCache does). */
    private int chooseVictim(SwitchControl control) {
        List<Integer> used = new ArrayList<>(keyOfIndex.keySet());
        int best = -1;
        BigInteger bestCount = null;
        for (int i = 0; i < Math.min(config.evictionSample(), used.size()); i++) {
            int candidate = used.get(random.nextInt(used.size()));
            BigInteger count = control.registerRead(ControlNames.CACHED_FREQUENCY, candidate);
            if (bestCount == null || count.compareTo(bestCount) < 0) {
                best = candidate;
                bestCount = count;
            }
        }
        return best;
    }

    private Task evictionOf(int index) {
        byte[] key = keyOfIndex.get(index);
        return config.program() == CacheProgram.FARREACH ? new FarReachEviction(index, key, 0)
                : new Removal(index, key);
    }

    private void resetCounters() {
        if (!handle.isUp() || !config.program().caches() || handle.generation() != seenGeneration) {
            return;
        }
        SwitchControl control = handle.control();
        for (int r = 0; r < ControlNames.CMS_ROWS; r++) {
            control.registerReset(ControlNames.cmsRow(r));
        }
        control.registerReset(ControlNames.CACHED_FREQUENCY);
        stats.counterResets++;
    }

    private void released(int index, byte[] key) {
        keyOfIndex.remove(index);
        cachedKeys.remove(hex(key));
        freeIndices.add(index);
    }

    // ------------------------------------------------------------------ procedures

    /** FarReach admission, Fig. 4: invalid -> install record (outdated) and key -> valid. */
    private final class FarReachAdmission implements Task {
        private final int index;
        private final InnetMessage report;
        private int stage;

        FarReachAdmission(int index, InnetMessage report) {
            this.index = index;
            this.report = report;
        }

        @Override
        public boolean step(SwitchControl c) {
            switch (stage++) {
                case 0 -> c.registerWrite(ControlNames.RECORD_VALID, index, BigInteger.ZERO);
                case 1 -> {
                    boolean deleted = report.status() == KvStatus.NOT_FOUND;
                    writeValue(c, index, deleted ? new byte[0] : report.value());
                    c.registerWrite(ControlNames.RECORD_SEQ, index, BigInteger.valueOf(report.seq()));
                    c.registerWrite(ControlNames.RECORD_DELETED, index, deleted ? BigInteger.ONE : BigInteger.ZERO);
                    // new records start outdated (Fig. 3(b) (1)): reads stay conservative until a write
                    // or a server read reply makes the record latest
                    c.registerWrite(ControlNames.RECORD_LATEST, index, BigInteger.ZERO);
                    c.registerWrite(ControlNames.RECORD_EVICTING, index, BigInteger.ZERO);
                    c.registerWrite(ControlNames.CACHED_FREQUENCY, index, BigInteger.ZERO);
                    // a record admitted during snapshot e is not part of it (§3.4): mark it as saved
                    c.registerWrite(ControlNames.RECORD_SAVED_EPOCH, index, c.registerRead(ControlNames.SNAPSHOT_EPOCH, 0));
                }
                case 2 -> c.addEntry(lookupEntry(report.key(), index));
                case 3 -> {
                    c.registerWrite(ControlNames.RECORD_VALID, index, BigInteger.ONE);
                    stats.admissions++;
                    return true;
                }
                default -> throw new IllegalStateException("admission past its last stage");
            }
            return false;
        }
    }

    /** NetCache admission: install the key invalid; the next read fetches and validates it (NC-2, NC-8). */
    private final class NetCacheAdmission implements Task {
        private final int index;
        private final byte[] key;
        private int stage;

        NetCacheAdmission(int index, byte[] key) {
            this.index = index;
            this.key = key;
        }

        @Override
        public boolean step(SwitchControl c) {
            switch (stage++) {
                case 0 -> {
                    c.registerWrite(ControlNames.RECORD_VALID, index, BigInteger.ZERO);
                    c.registerWrite(ControlNames.RECORD_SEQ, index, BigInteger.ZERO);
                    c.registerWrite(ControlNames.CACHED_FREQUENCY, index, BigInteger.ZERO);
                }
                case 1 -> {
                    c.addEntry(lookupEntry(key, index));
                    stats.admissions++;
                    return true;
                }
                default -> throw new IllegalStateException("admission past its last stage");
            }
            return false;
        }
    }

    /**
     * FarReach available eviction, Fig. 5(a): mark to-be-evicted, load the record, store it at its
     * server and wait for the acknowledgement, then remove it. Reads meanwhile are answered or embed the
     * record (FR-2/3/5); writes go to the server (FR-8).
     */
    private final class FarReachEviction implements Task {
        private final int index;
        private final byte[] key;
        private int stage;
        private UdpFrame evictStore;
        private StoredRecord storedRecord;
        private long reqId;
        private boolean acknowledged;

        FarReachEviction(int index, byte[] key, int firstStage) {
            this.index = index;
            this.key = key;
            this.stage = firstStage;
        }

        @Override
        public boolean step(SwitchControl c) {
            switch (stage) {
                case 0 -> {
                    c.registerWrite(ControlNames.RECORD_EVICTING, index, BigInteger.ONE);
                    stage = 1;
                }
                case 1 -> {
                    byte[] value = readValue(c, index);
                    long seq = c.registerRead(ControlNames.RECORD_SEQ, index).longValue();
                    boolean deleted = c.registerRead(ControlNames.RECORD_DELETED, index).signum() != 0;
                    reqId = nextRequestId++ & 0xffff_ffffL;
                    storedRecord = deleted ? StoredRecord.tombstone(seq) : StoredRecord.value(value, seq);
                    InnetMessage store = new InnetMessage(KvOp.EVICT_STORE, deleted ? KvOp.FLAG_DELETED : 0, 0, reqId, key,
                            seq, new byte[0], value);
                    int server = ring.ownerOf(key);
                    evictStore = new UdpFrame(RackAddressing.hostMac(server), RackAddressing.hostMac(ctx.hostNumber()),
                            RackAddressing.hostIp(ctx.hostNumber()), RackAddressing.hostIp(server), KvOp.CONTROL_PORT,
                            KvOp.CONTROL_PORT, store.encode());
                    ctx.network().send(evictStore);
                    evictRetryTimer = ctx.timers().schedule(config.evictRetryNanos());
                    stage = 2;
                }
                case 2 -> {
                    if (!acknowledged) {
                        return false; // waiting for EVICT_STORE_REPLY; retransmissions on the retry timer
                    }
                    ctx.timers().cancel(evictRetryTimer);
                    c.deleteEntry(ControlNames.CACHE_LOOKUP, List.of(new Match.Exact(ControlNames.keyValue(key))), 0);
                    c.registerWrite(ControlNames.RECORD_VALID, index, BigInteger.ZERO);
                    c.registerWrite(ControlNames.RECORD_EVICTING, index, BigInteger.ZERO);
                    // the server now durably holds this record (or a newer one): the next snapshot
                    // notification lets clients release preserved copies up to its seq
                    evictedSinceSnapshot.put(HexFormat.of().formatHex(key), new CachedRecord(key, storedRecord));
                    released(index, key);
                    stats.evictions++;
                    return true;
                }
                default -> throw new IllegalStateException("eviction past its last stage");
            }
            return false;
        }

        @Override
        public boolean onReply(InnetMessage msg) {
            if (msg.op() != KvOp.EVICT_STORE_REPLY || msg.reqId() != reqId || stage != 2) {
                return false;
            }
            acknowledged = true;
            return true;
        }

        void retransmit() {
            if (stage == 2 && !acknowledged) {
                stats.evictStoreRetries++;
                ctx.network().send(evictStore);
                evictRetryTimer = ctx.timers().schedule(config.evictRetryNanos());
            }
        }
    }

    /** Removes a record without storing it anywhere: NetCache eviction (the server has every value) and
     *  the cleanup of a FarReach admission that never became valid. */
    private final class Removal implements Task {
        private final int index;
        private final byte[] key;

        Removal(int index, byte[] key) {
            this.index = index;
            this.key = key;
        }

        @Override
        public boolean step(SwitchControl c) {
            c.deleteEntry(ControlNames.CACHE_LOOKUP, List.of(new Match.Exact(ControlNames.keyValue(key))), 0);
            c.registerWrite(ControlNames.RECORD_VALID, index, BigInteger.ZERO);
            released(index, key);
            stats.evictions++;
            return true;
        }
    }

    /**
     * Crash-consistent snapshot, §3.4 Figure 6, without blocking writes: (phase 1) the switch starts
     * reporting the original of each record's first change; the controller loads every record, marking
     * it saved; (phase 2) reporting stops; originals win over loaded records, because a record loaded
     * after its first change no longer shows the snapshot point. The corner cases of records admitted or
     * evicted after the snapshot point cannot arise here: the controller runs one procedure at a time,
     * so no admission or eviction interleaves with a snapshot (reads and writes do).
     */
    private final class SnapshotTask implements Task {
        private long epoch;
        private long started;
        private List<Integer> toLoad;
        private int next;
        private final TreeMap<String, CachedRecord> loaded = new TreeMap<>();
        private final java.util.Set<String> awaitingOriginal = new java.util.TreeSet<>();
        private long deadline;
        private int stage;

        @Override
        public boolean step(SwitchControl c) {
            switch (stage) {
                case 0 -> {
                    // Epochs never repeat, not even after a controller restart: records keep the number of
                    // an abandoned attempt in record_saved_epoch, and a repeated number would make the
                    // switch skip their originals (safe - the snapshot is abandoned - but wasteful).
                    epoch = ctx.durable().get(DURABLE_EPOCH).map(b -> java.nio.ByteBuffer.wrap(b).getLong()).orElse(0L) + 1;
                    ctx.durable().put(DURABLE_EPOCH, java.nio.ByteBuffer.allocate(8).putLong(epoch).array());
                    ctx.durable().sync();
                    started = ctx.clock().nowNanos();
                    originals.clear();
                    snapshotInProgress = epoch;
                    c.registerWrite(ControlNames.SNAPSHOT_EPOCH, 0, BigInteger.valueOf(epoch));
                    hooks.snapshotPoint(epoch);
                    toLoad = new ArrayList<>(keyOfIndex.keySet());
                    stage = 1;
                }
                case 1 -> {
                    for (int n = 0; n < SNAPSHOT_LOADS_PER_STEP && next < toLoad.size(); n++, next++) {
                        int index = toLoad.get(next);
                        byte[] key = keyOfIndex.get(index);
                        String k = HexFormat.of().formatHex(key);
                        if (c.registerRead(ControlNames.RECORD_SAVED_EPOCH, index).longValue() == epoch) {
                            awaitingOriginal.add(k); // changed since the snapshot point: its original is reported
                        } else {
                            loaded.put(k, new CachedRecord(key, readRecord(c, index)));
                            c.registerWrite(ControlNames.RECORD_SAVED_EPOCH, index, BigInteger.valueOf(epoch));
                        }
                    }
                    if (next == toLoad.size()) {
                        stage = 2;
                    }
                }
                case 2 -> {
                    c.registerWrite(ControlNames.SNAPSHOT_EPOCH, 0, BigInteger.ZERO);
                    deadline = ctx.clock().nowNanos() + WAIT_NANOS;
                    stage = 3;
                }
                case 3 -> {
                    if (config.bugs().contains(SeededBug.SNAPSHOT_WITHOUT_ORIGINALS)) {
                        // seeded bug: take the changed records as they are now
                        for (String k : awaitingOriginal) {
                            int index = indexOf(k);
                            loaded.put(k, new CachedRecord(keyOfIndex.get(index), readRecord(c, index)));
                        }
                        awaitingOriginal.clear();
                    }
                    if (!originals.keySet().containsAll(awaitingOriginal)) {
                        if (ctx.clock().nowNanos() < deadline) {
                            return false;
                        }
                        // an original was lost on its way: this snapshot cannot be trusted; keep the last
                        snapshotInProgress = 0;
                        stats.snapshotsAbandoned++;
                        ctx.log("snapshot " + epoch + " abandoned: " + awaitingOriginal.size() + " originals missing");
                        return true;
                    }
                    for (String k : awaitingOriginal) {
                        loaded.put(k, originals.get(k));
                    }
                    complete();
                    return true;
                }
                default -> throw new IllegalStateException("snapshot past its last stage");
            }
            return false;
        }

        private void complete() {
            List<CachedRecord> records = List.copyOf(loaded.values());
            lastSnapshot = new SnapshotCodec.Snapshot(epoch, records);
            ctx.durable().put(DURABLE_SNAPSHOT, SnapshotCodec.encode(lastSnapshot));
            ctx.durable().sync();
            snapshotInProgress = 0;
            stats.snapshots++;
            hooks.snapshotTaken(epoch, records, started, ctx.clock().nowNanos());
            // tell clients which preserved records are now safe without them (§3.4)
            List<CachedRecord> covered = new ArrayList<>(records);
            covered.addAll(evictedSinceSnapshot.values());
            evictedSinceSnapshot.clear();
            List<SnapshotCoverage.Entry> entries = covered.stream()
                    .map(r -> new SnapshotCoverage.Entry(r.key(), r.seq())).toList();
            for (byte[] chunk : SnapshotCoverage.encode(entries)) {
                for (int client : config.clients()) {
                    sendControl(client, new InnetMessage(KvOp.SNAPSHOT_DONE, 0, 0, epoch, new byte[InnetMessage.KEY_BYTES],
                            0, new byte[0], chunk));
                }
            }
        }
    }

    private int indexOf(String keyHex) {
        for (var e : keyOfIndex.entrySet()) {
            if (HexFormat.of().formatHex(e.getValue()).equals(keyHex)) {
                return e.getKey();
            }
        }
        throw new IllegalStateException("key " + keyHex + " is not cached");
    }

    /**
     * Zero-loss recovery of a restarted switch, §3.4: gate client requests, give this switch incarnation
     * a sequence-number base above every number used before, install forwarding, collect every client's
     * preserved records, replay the newest record per key to its server (servers keep it only if newer),
     * re-admit the snapshot's records as outdated, and open the gate.
     */
    private final class Recovery implements Task {
        private int stage;
        private long started;
        private long round;
        private long nextResend;
        private long deadline;
        private final java.util.Map<Integer, Long> announced = new TreeMap<>();
        private final java.util.Map<Integer, Integer> received = new TreeMap<>();
        private final TreeMap<String, CachedRecord> newest = new TreeMap<>();
        private final TreeMap<Long, UdpFrame> unacknowledged = new TreeMap<>();
        private int replayed;

        Recovery(int firstStage) {
            this.stage = firstStage;
        }

        @Override
        public boolean step(SwitchControl c) {
            long now = ctx.clock().nowNanos();
            switch (stage) {
                case 0 -> {
                    // The gate first: a restarted switch forwards nothing until routes exist, so no client
                    // request can slip through before it.
                    c.registerWrite(ControlNames.RECOVERING, 0, BigInteger.ONE);
                    if (!config.bugs().contains(SeededBug.RECOVERY_KEEPS_COUNTERS_AT_ZERO)) {
                        SwitchOs.raiseSequenceCounters(c, sequenceBase());
                    }
                    programFreshSwitch(c);
                    stage = 1;
                }
                case 1 -> {
                    started = now;
                    round = ++recoveryRound;
                    announced.clear();
                    received.clear();
                    newest.clear();
                    requestPreserved(now);
                    deadline = now + WAIT_NANOS;
                    stage = 2;
                }
                case 2 -> {
                    boolean allAnswered = config.clients().stream()
                            .allMatch(h -> announced.containsKey(h) && announced.get(h) == (long) received.getOrDefault(h, 0));
                    if (!allAnswered && now < deadline) {
                        if (now >= nextResend) {
                            requestPreserved(now);
                        }
                        return false;
                    }
                    // A client that never answers has crashed and lost its preserved records: the
                    // protocol's documented limitation (client and switch crashing together).
                    stats.recoveryClientsMissing += config.clients().size() - announced.size();
                    if (lastSnapshot != null) {
                        for (CachedRecord r : lastSnapshot.records()) {
                            keepNewest(r);
                        }
                    }
                    for (CachedRecord r : newest.values()) {
                        long reqId = nextRequestId++ & 0xffff_ffffL;
                        InnetMessage store = new InnetMessage(KvOp.RECOVER_STORE, r.record().deleted() ? KvOp.FLAG_DELETED : 0, 0,
                                reqId, r.key(), r.seq(), new byte[0], r.record().value());
                        UdpFrame f = frameTo(ring.ownerOf(r.key()), store);
                        unacknowledged.put(reqId, f);
                        ctx.network().send(f);
                    }
                    replayed = newest.size();
                    nextResend = now + RESEND_NANOS;
                    stage = 3;
                }
                case 3 -> {
                    if (!unacknowledged.isEmpty()) {
                        if (now >= nextResend) {
                            unacknowledged.values().forEach(ctx.network()::send);
                            nextResend = now + RESEND_NANOS;
                        }
                        return false;
                    }
                    // re-admit the snapshot's records, outdated (reads stay conservative until refreshed)
                    int readmitted = 0;
                    if (lastSnapshot != null) {
                        for (CachedRecord r : lastSnapshot.records()) {
                            if (freeIndices.isEmpty() || cachedKeys.contains(r.keyHex())) {
                                continue;
                            }
                            admitNow(c, newest.getOrDefault(r.keyHex(), r));
                            readmitted++;
                        }
                    }
                    c.registerWrite(ControlNames.RECOVERING, 0, BigInteger.ZERO);
                    stats.recoveries++;
                    hooks.recovered(started, now, replayed, readmitted, announced.size());
                    ctx.log("recovered in " + (now - started) + " ns: " + replayed + " records replayed, " + readmitted
                            + " re-admitted, " + announced.size() + "/" + config.clients().size() + " clients answered");
                    return true;
                }
                default -> throw new IllegalStateException("recovery past its last stage");
            }
            return false;
        }

        private void requestPreserved(long now) {
            for (int client : config.clients()) {
                if (!announced.containsKey(client)) {
                    sendControl(client, new InnetMessage(KvOp.PRESERVED_REQUEST, 0, 0, round,
                            new byte[InnetMessage.KEY_BYTES], 0, new byte[0], new byte[0]));
                }
            }
            nextResend = now + RESEND_NANOS;
        }

        private void keepNewest(CachedRecord r) {
            CachedRecord current = newest.get(r.keyHex());
            if (current == null || current.seq() < r.seq()) {
                newest.put(r.keyHex(), r);
            }
        }

        @Override
        public boolean onReply(InnetMessage msg) {
            switch (msg.op()) {
                case KvOp.PRESERVED_RECORD -> {
                    if (msg.reqId() != round || stage != 2) {
                        return msg.reqId() < round; // an older round's leftovers are consumed and ignored
                    }
                    int client = lastSender;
                    received.merge(client, 1, Integer::sum);
                    if (!config.bugs().contains(SeededBug.RECOVERY_IGNORES_PRESERVED)) {
                        keepNewest(new CachedRecord(msg.key(), StoredRecord.carriedBy(msg)));
                    }
                    return true;
                }
                case KvOp.PRESERVED_END -> {
                    if (msg.reqId() == round && stage == 2) {
                        announced.put(lastSender, msg.seq());
                    }
                    return true;
                }
                case KvOp.RECOVER_STORE_REPLY -> {
                    return unacknowledged.remove(msg.reqId()) != null;
                }
                default -> {
                    return false;
                }
            }
        }
    }

    /** The sender of the control packet being handled (set by onPacket). */
    private int lastSender;

    /**
     * The sequence-number base of the current switch incarnation: incarnation g numbers from
     * (g - 1) * 2^24, so every number a restarted switch assigns exceeds every number of earlier ones
     * as long as no slot takes 2^24 writes in one incarnation (and at most 256 incarnations fit 32 bits).
     */
    private long sequenceBase() {
        if (bringUps > 256) {
            throw new IllegalStateException("32-bit sequence numbers allow 256 switch incarnations");
        }
        return (bringUps - 1) << 24;
    }

    /** Re-admits {@code r} at once, as a hot report carrying the record would (recovery's re-admission). */
    private void admitNow(SwitchControl c, CachedRecord r) {
        admitAtOnce(c, new InnetMessage(KvOp.HOT_REPORT, r.record().deleted() ? KvOp.FLAG_DELETED : 0,
                r.record().deleted() ? KvStatus.NOT_FOUND : KvStatus.OK, 0, r.key(), r.seq(), new byte[0],
                r.record().value()));
    }

    private static StoredRecord readRecord(SwitchControl c, int index) {
        long seq = c.registerRead(ControlNames.RECORD_SEQ, index).longValue();
        if (c.registerRead(ControlNames.RECORD_DELETED, index).signum() != 0) {
            return StoredRecord.tombstone(seq);
        }
        return StoredRecord.value(readValue(c, index), seq);
    }

    private UdpFrame frameTo(int host, InnetMessage msg) {
        return new UdpFrame(RackAddressing.hostMac(host), RackAddressing.hostMac(ctx.hostNumber()),
                RackAddressing.hostIp(ctx.hostNumber()), RackAddressing.hostIp(host), KvOp.CONTROL_PORT, KvOp.CONTROL_PORT,
                msg.encode());
    }

    private void sendControl(int host, InnetMessage msg) {
        ctx.network().send(frameTo(host, msg));
    }

    // ------------------------------------------------------------------ helpers

    private static EntrySpec lookupEntry(byte[] key, int index) {
        return new EntrySpec(ControlNames.CACHE_LOOKUP, List.of(new Match.Exact(ControlNames.keyValue(key))), 0,
                ControlNames.SET_CACHE_INDEX, List.of(BigInteger.valueOf(index)));
    }

    /** Writes a value into the 16 word registers (big-endian, zero padded) and its length. */
    static void writeValue(SwitchControl c, int index, byte[] value) {
        if (value.length > InnetMessage.MAX_CACHED_VALUE_BYTES) {
            throw new IllegalArgumentException("value of " + value.length + " bytes cannot be cached");
        }
        for (int w = 0; w < ControlNames.VALUE_WORDS; w++) {
            long word = 0;
            for (int b = 0; b < 8; b++) {
                int at = w * 8 + b;
                word = (word << 8) | (at < value.length ? value[at] & 0xff : 0);
            }
            c.registerWrite(ControlNames.valueWord(w), index, new BigInteger(Long.toUnsignedString(word)));
        }
        c.registerWrite(ControlNames.RECORD_VALLEN, index, BigInteger.valueOf(value.length));
    }

    static byte[] readValue(SwitchControl c, int index) {
        int length = c.registerRead(ControlNames.RECORD_VALLEN, index).intValue();
        byte[] value = new byte[Math.min(length, InnetMessage.MAX_CACHED_VALUE_BYTES)];
        for (int w = 0; w * 8 < value.length; w++) {
            long word = c.registerRead(ControlNames.valueWord(w), index).longValue();
            for (int b = 0; b < 8 && w * 8 + b < value.length; b++) {
                value[w * 8 + b] = (byte) (word >>> (56 - 8 * b));
            }
        }
        return value;
    }

    private static byte[] keyBytes(BigInteger v) {
        byte[] raw = v.toByteArray();
        byte[] key = new byte[InnetMessage.KEY_BYTES];
        int copy = Math.min(raw.length, key.length);
        System.arraycopy(raw, raw.length - copy, key, key.length - copy, copy);
        return key;
    }

    private static String hex(byte[] key) {
        return HexFormat.of().formatHex(key);
    }

    public ControllerStats stats() {
        return stats;
    }

    /** The procedure in progress: "idle", or the name of an admission, eviction, snapshot or recovery. */
    public String currentProcedure() {
        return task == null ? "idle" : task.getClass().getSimpleName();
    }

    /** Keys the controller believes are cached (for reports and tests). */
    public int cachedRecords() {
        return keyOfIndex.size();
    }
}
