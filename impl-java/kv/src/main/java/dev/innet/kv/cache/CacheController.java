package dev.innet.kv.cache;

import dev.innet.kv.ConsistentHashRing;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.PacketPrologue;
import dev.innet.protocol.Forwarding;
import dev.innet.protocol.NodeCounters;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.RandomSource;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The loop every in-switch cache controller runs, as an event-driven node on the switch's CPU port:
 * hot reports queue keys for admission; when the cache is full the coldest of a sample of cached
 * records is evicted first (§3.3, as NetCache does); popularity counters are reset every period; a
 * switch the controller has not seen is brought up (a fresh one) or relearned (one that kept running
 * while the controller restarted). It drives the switch only through the target-neutral
 * {@link SwitchControl}, one step per control-plane round trip.
 *
 * <p>One procedure at a time, which is the spec's "at most one admission or eviction in flight per
 * key" made global (simpler, and the papers' controllers are sequential too). What an admission and an
 * eviction do is the protocol's: subclasses supply them, and may add procedures of their own.
 */
public abstract class CacheController implements Node, NodeCounters {
    private static final String DURABLE_BRING_UPS = "switch-bring-ups";

    protected final CacheControllerConfig config;
    protected final SwitchHandle handle;
    protected final CacheDirectory directory;
    private final CacheControllerStats stats;

    protected NodeContext ctx;
    protected ConsistentHashRing ring;
    private RandomSource random;
    private int seenGeneration;
    private long bringUps;
    private final ArrayDeque<InnetMessage> admissions = new ArrayDeque<>();
    private final Set<String> queuedKeys = new HashSet<>();
    /** Procedures a switch adoption found half done; they run before any new work. */
    protected final ArrayDeque<ControlProcedure> resumed = new ArrayDeque<>();
    private ControlProcedure task;
    /** The protocol's procedure that programs a fresh switch (FarReach's recovery), while it runs. */
    private ControlProcedure bringUp;
    private long tickTimer;
    private long resetTimer;
    private long nextRequestId = 1;
    /** The sender of the control packet being handled. */
    private int lastSender;

    protected CacheController(CacheControllerConfig config, SwitchHandle handle, CacheControllerStats stats) {
        this.config = config;
        this.handle = handle;
        this.stats = stats;
        this.directory = new CacheDirectory(config.capacity());
    }

    // ------------------------------------------------------------------ what a protocol supplies

    /** The admission of the key {@code report} names into slot {@code index} (already taken in the directory). */
    protected abstract ControlProcedure admission(int index, InnetMessage report);

    /** The eviction of the record in slot {@code index}. */
    protected abstract ControlProcedure eviction(int index, byte[] key);

    /**
     * A switch with empty tables, brought up for the {@code bringUp}-th time (counted durably). Returns a
     * procedure to run before anything else (a recovery), or null to program it at once.
     */
    protected ControlProcedure freshSwitchProcedure(SwitchControl control, long bringUp) {
        return null;
    }

    /** A switch that kept its tables while this controller restarted: rebuild the view from it. */
    protected void relearn(SwitchControl control, boolean afterControllerRestart) {
        for (EntrySpec e : control.readEntries(CacheControlNames.CACHE_LOOKUP)) {
            byte[] key = CacheRegisters.keyBytes(((Match.Exact) e.match().get(0)).value());
            directory.adopt(e.args().get(0).intValue(), key);
        }
        ctx.log("relearned " + directory.size() + " cached records (controller restart: " + afterControllerRestart + ")");
    }

    /** Work of the protocol's own that goes before admissions (a due snapshot), or null. */
    protected ControlProcedure nextProtocolProcedure() {
        return null;
    }

    /** Whether the protocol has work waiting, so the loop keeps stepping instead of idling. */
    protected boolean protocolWorkPending() {
        return false;
    }

    /** A control message none of the loop's own; returns false if it is stray (counted as malformed). */
    protected boolean onProtocolMessage(InnetMessage msg) {
        return false;
    }

    /** A timer the loop did not schedule. */
    protected void onProtocolTimer(long timerId) {}

    /** Called when a procedure starts (for monitors). */
    protected void procedureStarted(String procedure, long nowNanos) {}

    /** Forwarding and the hot threshold of a switch that has just (re)started; protocols add their own state. */
    protected void programFreshSwitch(SwitchControl control) {
        Forwarding.install(control, config.hosts());
        if (config.hotThreshold() > 0) {
            control.registerWrite(CacheControlNames.HOT_THRESHOLD, 0, BigInteger.valueOf(config.hotThreshold()));
        }
    }

    // ------------------------------------------------------------------ the node

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        this.random = context.random().fork("controller");
        this.ring = new ConsistentHashRing(config.servers());
        this.resetTimer = context.timers().schedule(config.counterResetNanos());
        this.bringUps = context.durable().get(DURABLE_BRING_UPS).map(b -> ByteBuffer.wrap(b).getLong()).orElse(0L);
        onStarted(context);
        scheduleTick(config.controlStepNanos());
        context.log("controller up (incarnation " + context.incarnation() + ", " + getClass().getSimpleName() + ")");
    }

    /** The protocol's own start-up (after the loop's state exists, before the first step). */
    protected void onStarted(NodeContext context) {}

    @Override
    public void onTimer(long timerId) {
        if (timerId == tickTimer) {
            tick();
        } else if (timerId == resetTimer) {
            resetCounters();
            resetTimer = ctx.timers().schedule(config.counterResetNanos());
        } else {
            onProtocolTimer(timerId);
        }
    }

    @Override
    public void onPacket(byte[] bytes) {
        InnetPacket packet = PacketPrologue.decodeOrDrop(bytes, f -> f.dstPort() == KvOp.CONTROL_PORT,
                () -> stats.malformed++);
        if (packet == null) {
            return;
        }
        InnetMessage msg = packet.message();
        lastSender = RackAddressing.hostOfIp(packet.frame().srcIp());
        if (task != null && task.onReply(msg)) {
            return;
        }
        if (msg.op() == KvOp.HOT_REPORT) {
            onHotReport(msg);
        } else if (!onProtocolMessage(msg)) {
            stats.malformed++; // a late acknowledgement of a finished procedure, or stray traffic
        }
    }

    private void onHotReport(InnetMessage report) {
        stats.hotReports++;
        String k = CacheDirectory.hex(report.key());
        if (directory.contains(report.key()) || queuedKeys.contains(k) || admissions.size() >= config.admissionQueue()
                || report.value().length > InnetMessage.MAX_CACHED_VALUE_BYTES) {
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
                procedureStarted(currentProcedure(), ctx.clock().nowNanos());
            }
        }
        if (task != null && task.step(control)) {
            if (task == bringUp) {
                bringUp = null;
                ctx.log("switch generation " + seenGeneration + " programmed");
            }
            task = null;
        }
        boolean busy = task != null || !admissions.isEmpty() || !resumed.isEmpty() || protocolWorkPending();
        scheduleTick(busy ? config.controlStepNanos() : config.idlePollNanos());
    }

    /**
     * A switch generation we have not seen: the first switch, a restarted (empty) switch, or - after a
     * controller restart - a switch that kept running and whose cache we must relearn.
     */
    private void adoptSwitch(SwitchControl control) {
        boolean restartedController = seenGeneration == 0 && ctx.incarnation() > 0;
        seenGeneration = handle.generation();
        directory.clear();
        resumed.clear();
        task = null;
        bringUp = null;
        if (Forwarding.installed(control)) {
            relearn(control, restartedController);
            return;
        }
        // A fresh switch: every table and register is empty. Count the bring-up durably first: a protocol
        // may derive state from the count (FarReach's sequence-number base of this switch incarnation).
        bringUps++;
        ctx.durable().put(DURABLE_BRING_UPS, ByteBuffer.allocate(8).putLong(bringUps).array());
        ctx.durable().sync();
        stats.switchBringUps++;
        ControlProcedure first = freshSwitchProcedure(control, bringUps);
        if (first != null) {
            task = first;
            bringUp = first;
            return;
        }
        programFreshSwitch(control);
        preload(control);
        ctx.log("switch generation " + seenGeneration + " programmed");
    }

    /**
     * Admits the configured keys at once, with the same procedures as hot-key admission run to completion
     * (the servers are empty then, so each key starts as an outdated tombstone with seq 0: the first read
     * fetches the server's answer, the first write is absorbed).
     */
    private void preload(SwitchControl control) {
        for (byte[] key : config.preload()) {
            if (directory.isFull() || directory.contains(key)) {
                continue;
            }
            admitAtOnce(control, new InnetMessage(KvOp.HOT_REPORT, 0, KvStatus.NOT_FOUND, 0, key, 0, new byte[0],
                    new byte[0]));
        }
    }

    /**
     * The admission preloading runs to completion without waiting for any reply; by default the protocol's
     * own ({@link #admission}).
     */
    protected ControlProcedure admissionAtOnce(int index, InnetMessage report) {
        return admission(index, report);
    }

    /** Takes a free slot for {@code report}'s key and returns the protocol's admission procedure for it. */
    private ControlProcedure admissionOf(InnetMessage report) {
        return admission(directory.take(report.key()), report);
    }

    /** Runs an admission's steps back to back (preloading, recovery's re-admission): all are control writes. */
    protected final void admitAtOnce(SwitchControl control, InnetMessage report) {
        admitAtOnce(control, report, this::admissionAtOnce);
    }

    /**
     * The same with the admission procedure {@code admission} makes for the slot taken and the report; it
     * must finish without waiting for any reply.
     */
    protected final void admitAtOnce(SwitchControl control, InnetMessage report,
            java.util.function.BiFunction<Integer, InnetMessage, ControlProcedure> admission) {
        ControlProcedure procedure = admission.apply(directory.take(report.key()), report);
        while (!procedure.step(control)) {
            // nothing to wait for between steps
        }
    }

    private ControlProcedure nextTask(SwitchControl control) {
        if (!resumed.isEmpty()) {
            return resumed.poll();
        }
        ControlProcedure own = nextProtocolProcedure();
        if (own != null) {
            return own;
        }
        if (admissions.isEmpty()) {
            return null;
        }
        if (directory.isFull()) {
            int victim = chooseVictim(control);
            return eviction(victim, directory.keyAt(victim));
        }
        InnetMessage report = admissions.poll();
        queuedKeys.remove(CacheDirectory.hex(report.key()));
        if (directory.contains(report.key())) {
            return null;
        }
        return admissionOf(report);
    }

    /** Samples cached counters and picks the coldest record (§3.3, as NetCache does). */
    private int chooseVictim(SwitchControl control) {
        List<Integer> used = directory.indices();
        int best = -1;
        BigInteger bestCount = null;
        for (int i = 0; i < Math.min(config.evictionSample(), used.size()); i++) {
            int candidate = used.get(random.nextInt(used.size()));
            BigInteger count = control.registerRead(CacheControlNames.CACHED_FREQUENCY, candidate);
            if (bestCount == null || count.compareTo(bestCount) < 0) {
                best = candidate;
                bestCount = count;
            }
        }
        return best;
    }

    private void resetCounters() {
        if (!handle.isUp() || handle.generation() != seenGeneration) {
            return;
        }
        SwitchControl control = handle.control();
        for (int r = 0; r < CacheControlNames.CMS_ROWS; r++) {
            control.registerReset(CacheControlNames.cmsRow(r));
        }
        control.registerReset(CacheControlNames.CACHED_FREQUENCY);
        stats.counterResets++;
    }

    // ------------------------------------------------------------------ for procedures

    public final NodeContext context() {
        return ctx;
    }

    public final CacheDirectory directory() {
        return directory;
    }

    public final ConsistentHashRing ring() {
        return ring;
    }

    /** Fresh switches brought up so far, counted durably across controller restarts. */
    public final long bringUps() {
        return bringUps;
    }

    /** The host that sent the control packet being handled. */
    public final int lastSender() {
        return lastSender;
    }

    /** A fresh 32-bit request id for a controller-originated request. */
    public final long nextRequestId() {
        return nextRequestId++ & 0xffff_ffffL;
    }

    /** A control-port frame from the controller to {@code host}. */
    public final UdpFrame frameTo(int host, InnetMessage msg) {
        return new UdpFrame(RackAddressing.hostMac(host), RackAddressing.hostMac(ctx.hostNumber()),
                RackAddressing.hostIp(ctx.hostNumber()), RackAddressing.hostIp(host), KvOp.CONTROL_PORT, KvOp.CONTROL_PORT,
                msg.encode());
    }

    public final void sendControl(int host, InnetMessage msg) {
        ctx.network().send(frameTo(host, msg));
    }

    /** The record in slot {@code index} has left the cache. */
    public final void released(int index, byte[] key) {
        directory.release(index, key);
        stats.evictions++;
    }

    public final void admitted() {
        stats.admissions++;
    }

    /** The procedure running now, or null. */
    protected final ControlProcedure currentTask() {
        return task;
    }

    /** The procedure in progress: "idle", or the name of the running procedure. */
    public final String currentProcedure() {
        return task == null ? "idle" : task.procedureName();
    }

    /** Keys the controller believes are cached (for reports and tests). */
    public final int cachedRecords() {
        return directory.size();
    }

    @Override
    public Map<String, Long> counters() {
        return stats.asMap();
    }
}
