package dev.innet.rack.controller;

import dev.innet.kv.ConsistentHashRing;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.p4sim.control.EntrySpec;
import dev.innet.p4sim.control.Match;
import dev.innet.p4sim.control.SwitchControl;
import dev.innet.rack.CacheProgram;
import dev.innet.rack.SwitchHandle;
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
    private final ControllerConfig config;
    private final SwitchHandle handle;

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

    public CacheController(ControllerConfig config, SwitchHandle handle) {
        this.config = config;
        this.handle = handle;
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
        if (task != null && task.onReply(msg)) {
            return;
        }
        switch (msg.op()) {
            case KvOp.HOT_REPORT -> onHotReport(msg);
            case KvOp.SNAPSHOT_ORIGINAL -> stats.snapshotOriginals++; // snapshots: issue 6
            default -> stats.malformed++; // a late acknowledgement of a finished eviction, or stray traffic
        }
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
        }
        if (task != null && task.step(control)) {
            task = null;
        }
        boolean busy = task != null || !admissions.isEmpty() || !resumed.isEmpty();
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
            SwitchOs.bringUp(control, config.program(), config.hosts());
            if (config.program().caches() && config.hotThreshold() > 0) {
                control.registerWrite(ControlNames.HOT_THRESHOLD, 0, BigInteger.valueOf(config.hotThreshold()));
            }
            if (config.program().caches()) {
                preload(control);
            }
            stats.switchBringUps++;
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
            int index = freeIndices.poll();
            keyOfIndex.put(index, key);
            cachedKeys.add(hex(key));
            InnetMessage none = new InnetMessage(KvOp.HOT_REPORT, 0, KvStatus.NOT_FOUND, 0, key, 0, new byte[0],
                    new byte[0]);
            Task admission = config.program() == CacheProgram.FARREACH ? new FarReachAdmission(index, none)
                    : new NetCacheAdmission(index, key);
            while (!admission.step(control)) {
                // every admission step is a control write; nothing to wait for
            }
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
    private void relearnCache(SwitchControl control, boolean afterControllerRestart) {
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
        ctx.log("relearned " + keyOfIndex.size() + " cached records (controller restart: " + afterControllerRestart + ")");
    }

    private Task nextTask(SwitchControl control) {
        if (!resumed.isEmpty()) {
            return resumed.poll();
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
        int index = freeIndices.poll();
        keyOfIndex.put(index, report.key());
        cachedKeys.add(hex(report.key()));
        return config.program() == CacheProgram.FARREACH ? new FarReachAdmission(index, report)
                : new NetCacheAdmission(index, report.key());
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

    /** Keys the controller believes are cached (for reports and tests). */
    public int cachedRecords() {
        return keyOfIndex.size();
    }
}
