package dev.innet.pegasus.controller;

import dev.innet.pegasus.PegasusRack;
import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.protocol.Forwarding;
import dev.innet.protocol.NodeCounters;
import dev.innet.protocol.RackPorts;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;

/**
 * The Pegasus controller (§6.3, §8.1) on the switch's CPU port, as an event-driven node: it brings up a
 * fresh switch ({@link RecoverSwitch}), replicates keys the switch reports hot ({@link AddKey}), marks
 * the coldest replicated key for removal when the directory is full and a hotter key waits
 * ({@link MarkRemove}, then {@link ForgetRemoved} on the switch's report), ends a removal still pending a
 * period after the mark ({@link RemovalRewrite}, issue 16), spreads read-only keys with
 * virtual writes ({@link VirtualWrite}), and every period sets each key's write replication factor from
 * its read/write ratio (§6.5) and resets the switch's counters. One procedure at a time, one
 * control-plane step per tick; it reaches the switch only through switch-api and packet-outs.
 */
public class PegasusController implements Node, NodeCounters {
    private static final String DURABLE_REPLICATED = "replicated-keys";
    /** The source port of the controller's requests to servers and packet-outs; replies come back to it. */
    public static final int CONTROL_SOURCE_PORT = 40254;
    private static final int HOT_QUEUE_LIMIT = 64;

    /**
     * @param rack            the rack
     * @param hosts           every host the switch forwards to (servers, clients, controller)
     * @param clients         the client hosts
     * @param hotThreshold    the switch's hot threshold (0: the program's default)
     * @param periodNanos     statistics period: counters reset, replication factors set, victims chosen
     * @param stepNanos       one control-plane step
     * @param retryNanos      resend interval of controller requests
     */
    public record Config(PegasusRack rack, List<Integer> hosts, List<Integer> clients, int hotThreshold,
            long periodNanos, long stepNanos, long retryNanos, IntUnaryOperator portOfHost, boolean rackGate) {
        public Config {
            hosts = List.copyOf(hosts);
            clients = List.copyOf(clients);
            if (periodNanos <= 0 || stepNanos <= 0 || retryNanos <= 0) {
                throw new IllegalArgumentException("controller periods must be positive");
            }
        }

        /** A one-rack deployment: hosts on their own port numbers, the rack gate off. */
        public Config(PegasusRack rack, List<Integer> hosts, List<Integer> clients, int hotThreshold, long periodNanos,
                long stepNanos, long retryNanos) {
            this(rack, hosts, clients, hotThreshold, periodNanos, stepNanos, retryNanos, RackPorts::portOf, false);
        }

        /**
         * One rack of a chain (§7): {@code others} (clients, other racks' servers and controllers, the
         * configuration service) are reached through {@code portOfHost}, and the rack gate lists this
         * rack's servers so that other racks' traffic passes by.
         */
        public Config inChain(List<Integer> others, IntUnaryOperator portOf) {
            return new Config(rack, hosts, others, hotThreshold, periodNanos, stepNanos, retryNanos, portOf, true);
        }
    }

    private final Config config;
    private final SwitchHandle handle;
    private NodeContext ctx;
    private int seenGeneration;
    private long tickTimer;
    private long periodTimer;
    private long nextRequestId = 1;
    private boolean open;
    private Procedure task;
    private final ArrayDeque<Procedure> queue = new ArrayDeque<>();
    private final Set<String> hotQueue = new LinkedHashSet<>();
    /** slot -> key (hex) of every slot in use; its state below */
    private final Map<Integer, String> slots = new TreeMap<>();
    private final Map<Integer, Integer> slotState = new TreeMap<>();
    private final Map<String, Long> counters = new TreeMap<>();
    /** slot -> statistics periods it has ended marked on the switch; slots a removal rewrite is queued for */
    private final Map<Integer, Integer> markedPeriods = new TreeMap<>();
    private final Set<Integer> rewriting = new java.util.TreeSet<>();

    public PegasusController(Config config, SwitchHandle handle) {
        this.config = config;
        this.handle = handle;
    }

    // ------------------------------------------------------------------ node

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        for (String c : List.of("admissions", "removals", "forgotten", "virtualWrites", "recoveries", "hotReports",
                "malformed", "relearned", "removalRewrites")) {
            counters.put(c, 0L);
        }
        tickTimer = ctx.timers().schedule(config.stepNanos());
        periodTimer = ctx.timers().schedule(config.periodNanos());
        context.log("pegasus controller up (incarnation " + context.incarnation() + ")");
        context.trace(dev.innet.sim.TraceEvent.of(dev.innet.pegasus.PegasusTraceEvents.CONTROLLER_START).with("servers",
                String.join(",", config.rack().servers().stream().map(String::valueOf).toList())));
    }

    @Override
    public void onTimer(long timerId) {
        if (timerId == tickTimer) {
            tick();
            tickTimer = ctx.timers().schedule(config.stepNanos());
        } else if (timerId == periodTimer) {
            if (open && handle.isUp() && handle.generation() == seenGeneration) {
                endOfPeriod(handle.control());
            }
            periodTimer = ctx.timers().schedule(config.periodNanos());
        }
    }

    @Override
    public void onPacket(byte[] bytes) {
        // the switch's reports are addressed to the rack controller's conventional address (pegasus.p4's
        // egress): in a chain, rack controllers have addresses of their own, and their CPU port is theirs
        PegasusPacket p = PegasusPacket.decodeOrDrop(bytes,
                f -> f.dstIp() == RackAddressing.hostIp(ctx.hostNumber())
                        || f.dstIp() == RackAddressing.hostIp(RackPorts.CONTROLLER_HOST), () -> count("malformed"));
        if (p == null) {
            return;
        }
        if (task != null && task.onReply(p)) {
            return;
        }
        switch (p.message().op()) {
            case PegasusOp.HOT_KEY -> onHotKey(p.message().key());
            case PegasusOp.KEY_REMOVED -> onKeyRemoved(p.message().key());
            case PegasusOp.VIRTUAL_WRITE_REPLY, PegasusOp.ADD_KEY_REPLY, PegasusOp.MARK_REMOVE_REPLY,
                    PegasusOp.TABLE_READ_REPLY, PegasusOp.TABLE_MERGE_REPLY, PegasusOp.MAX_VERSION_REPLY,
                    PegasusOp.READ_REPLY, PegasusOp.REPLICATE_REPLY, PegasusOp.WRITE_REPLY,
                    PegasusOp.DELETE_REPLY -> count("lateReplies");
            default -> count("malformed");
        }
    }

    private void tick() {
        if (!handle.isUp()) {
            return;
        }
        SwitchControl c = handle.control();
        if (handle.generation() != seenGeneration) {
            adopt(c);
        }
        if (task == null) {
            task = queue.poll();
            if (task == null && open) {
                task = nextAdmission();
            }
        }
        if (task != null && task.step(c)) {
            task = null;
        }
    }

    /** A switch generation this incarnation has not seen: a fresh switch is recovered, a running one relearned. */
    private void adopt(SwitchControl c) {
        seenGeneration = handle.generation();
        task = null;
        queue.clear();
        hotQueue.clear();
        slots.clear();
        slotState.clear();
        markedPeriods.clear();
        rewriting.clear();
        open = false;
        if (Forwarding.installed(c) && c.registerRead(DirectoryNames.SWITCH_OPEN, 0).intValue() == 1) {
            relearn(c);
            open = true;
        } else {
            queue.add(new RecoverSwitch(this, replicatedKeys()));
        }
    }

    /** The switch kept running while this controller restarted: the directory is read back from it. */
    private void relearn(SwitchControl c) {
        for (EntrySpec e : c.readEntries(DirectoryNames.RKEYS)) {
            BigInteger k = ((Match.Exact) e.match().get(0)).value();
            byte[] key = dev.innet.kv.cache.CacheRegisters.keyBytes(k);
            int index = e.args().get(0).intValue();
            int state = c.registerRead(DirectoryNames.KEY_STATE, index).intValue();
            if (state == DirectoryNames.KEY_INACTIVE) {
                // a half-done addition or a finished removal: the key behaves as unreplicated
                c.deleteEntry(DirectoryNames.RKEYS, e.match(), 0);
            } else {
                slots.put(index, hex(key));
                slotState.put(index, state);
            }
            c.registerWrite(DirectoryNames.WRITE_PAUSED, index, BigInteger.ZERO);
        }
        count("relearned");
    }

    // ------------------------------------------------------------------ policy

    /**
     * Whether a key the switch reports hot may be replicated in this rack: always in a one-rack
     * deployment; in a chain (§7) only where this rack serves the key's reads ({@code ChainRackController}).
     */
    protected boolean mayReplicate(byte[] key) {
        return true;
    }

    private void onHotKey(byte[] key) {
        count("hotReports");
        String k = hex(key);
        if (open && mayReplicate(key) && !slots.containsValue(k) && hotQueue.size() < HOT_QUEUE_LIMIT) {
            hotQueue.add(k);
        }
    }

    private void onKeyRemoved(byte[] key) {
        Integer index = slotOf(hex(key));
        if (index != null && slotState.get(index) == DirectoryNames.KEY_MARKED) {
            queue.add(new ForgetRemoved(this, key, index));
        }
    }

    /** The next hot key to replicate, if a slot is free. */
    private Procedure nextAdmission() {
        while (!hotQueue.isEmpty()) {
            String k = hotQueue.iterator().next();
            hotQueue.remove(k);
            if (slots.containsValue(k)) {
                continue;
            }
            int index = freeSlot();
            if (index < 0) {
                hotQueue.add(k); // wait for a removal
                return null;
            }
            slots.put(index, k);
            slotState.put(index, DirectoryNames.KEY_INACTIVE);
            return new AddKey(this, HexFormat.of().parseHex(k), index);
        }
        return null;
    }

    private int freeSlot() {
        for (int i = 0; i < config.rack().directorySlots(); i++) {
            if (!slots.containsKey(i)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Once per period: replication factors from each key's reads per write (§6.5), virtual writes for
     * keys read but not written, the coldest key marked for removal when the directory is full and a
     * hot key waits, marked keys whose removal report was missed forgotten; counters reset.
     */
    private void endOfPeriod(SwitchControl c) {
        int n = config.rack().servers().size();
        int coldest = -1;
        long coldestCount = Long.MAX_VALUE;
        for (Map.Entry<Integer, String> e : slots.entrySet()) {
            int index = e.getKey();
            int state = slotState.get(index);
            byte[] key = HexFormat.of().parseHex(e.getValue());
            int switchState = c.registerRead(DirectoryNames.KEY_STATE, index).intValue();
            if (state == DirectoryNames.KEY_MARKED && switchState == DirectoryNames.KEY_INACTIVE) {
                queue.add(new ForgetRemoved(this, key, index));
                continue;
            }
            if (state == DirectoryNames.KEY_MARKED && switchState == DirectoryNames.KEY_MARKED) {
                // issue 16: a removal still pending a whole period after the mark is ended by the controller
                int periods = markedPeriods.merge(index, 1, Integer::sum);
                if (periods >= removalRewritePeriods() && endsStuckRemovals() && mayRewriteToEndRemoval(key) && rewriting.add(index)) {
                    queue.add(new RemovalRewrite(this, key, index));
                }
                continue;
            }
            if (state != DirectoryNames.KEY_ACTIVE) {
                continue;
            }
            long reads = c.registerRead(DirectoryNames.READ_COUNT, index).longValue();
            long writes = c.registerRead(DirectoryNames.WRITE_COUNT, index).longValue();
            long factor = Math.max(1, Math.min(n, reads / Math.max(1, writes)));
            c.registerWrite(DirectoryNames.REP_FACTOR, index, BigInteger.valueOf(factor));
            c.registerWrite(DirectoryNames.READ_COUNT, index, BigInteger.ZERO);
            c.registerWrite(DirectoryNames.WRITE_COUNT, index, BigInteger.ZERO);
            if (writes == 0 && reads > 0 && Long.bitCount(c.registerRead(DirectoryNames.RSET_BITMAP, index).longValue()) < n) {
                queue.add(new VirtualWrite(this, key, index));
            }
            if (reads + writes < coldestCount) {
                coldestCount = reads + writes;
                coldest = index;
            }
        }
        if (!hotQueue.isEmpty() && freeSlot() < 0 && coldest >= 0) {
            slotState.put(coldest, DirectoryNames.KEY_MARKED); // no second mark while this one runs
            queue.add(new MarkRemove(this, HexFormat.of().parseHex(slots.get(coldest)), coldest));
        }
        for (String row : DirectoryNames.CMS_ROWS) {
            c.registerReset(row);
        }
    }

    // ------------------------------------------------------------------ operator commands

    /**
     * The spec's AddKey(k) with the key chosen by the caller instead of by hot reports: queued, then run
     * by the loop like the policy's admissions (pause, drain, client-table migration, ADD_KEY). Spec
     * replays (docs/conformance.md, "Pegasus") use these three commands, since the spec, not the
     * statistics, picks the key. Refused while the switch is not open, when the key already has a slot,
     * or when no slot is free.
     */
    public void commandAddKey(byte[] key) {
        requireOpen("add");
        String k = hex(key);
        if (slots.containsValue(k)) {
            throw new IllegalStateException("key " + k + " already has a directory slot");
        }
        int index = freeSlot();
        if (index < 0) {
            throw new IllegalStateException("no free directory slot for key " + k);
        }
        slots.put(index, k);
        slotState.put(index, DirectoryNames.KEY_INACTIVE);
        queue.add(new AddKey(this, key.clone(), index));
    }

    /** The spec's MarkRemove(k) for a replicated (active) key chosen by the caller (see {@link #commandAddKey}). */
    public void commandMarkRemove(byte[] key) {
        requireOpen("mark");
        int index = activeSlotOf(key);
        slotState.put(index, DirectoryNames.KEY_MARKED); // no second mark while this one runs
        queue.add(new MarkRemove(this, key.clone(), index));
    }

    /** The spec's VirtualWrite(k) for a replicated (active) key chosen by the caller (see {@link #commandAddKey}). */
    public void commandVirtualWrite(byte[] key) {
        requireOpen("virtually write");
        queue.add(new VirtualWrite(this, key.clone(), activeSlotOf(key)));
    }

    /**
     * Ends the removal of a key the switch holds marked (issue 16's {@link RemovalRewrite}) now, instead of
     * after a period (see {@link #commandAddKey}). Refused unless the key's slot is marked in the
     * controller's view.
     */
    public void commandEndRemoval(byte[] key) {
        requireOpen("end the removal of");
        Integer index = slotOf(hex(key));
        if (index == null || slotState.get(index) != DirectoryNames.KEY_MARKED) {
            throw new IllegalStateException("key " + hex(key) + " is not marked for removal");
        }
        if (rewriting.add(index)) {
            queue.add(new RemovalRewrite(this, key.clone(), index));
        }
    }

    /** Whether no procedure runs or waits (the loop has nothing to do until the next report or period). */
    public boolean idle() {
        return task == null && queue.isEmpty();
    }

    /** Whether the switch is recovered and open to clients. */
    public boolean switchOpen() {
        return open;
    }

    private void requireOpen(String what) {
        if (!open) {
            throw new IllegalStateException("cannot " + what + " a key before the switch is recovered");
        }
    }

    private int activeSlotOf(byte[] key) {
        Integer index = slotOf(hex(key));
        if (index == null || slotState.get(index) != DirectoryNames.KEY_ACTIVE) {
            throw new IllegalStateException("key " + hex(key) + " is not an active replicated key");
        }
        return index;
    }

    // ------------------------------------------------------------------ for the procedures

    /**
     * Whether key transitions migrate client tables (§6.4). Overridden only by the test that seeds the
     * spec's BugNoTableCopy.
     */
    protected boolean migratesClientTables() {
        return true;
    }

    /**
     * Whether the controller ends a removal still pending a period after the mark (issue 16). Overridden
     * only by the test that shows the stall without it.
     */
    protected boolean endsStuckRemovals() {
        return true;
    }

    /**
     * How many statistics periods a slot must end marked on the switch before a rewrite ends its removal:
     * 2, so at least one whole period has passed since the mark. Tests lower it to 1 to have rewrites race
     * client writes of the key.
     */
    protected int removalRewritePeriods() {
        return 2;
    }

    /**
     * Whether a removal rewrite pauses and drains the key's writes first. Overridden only by the test that
     * seeds the spec's BugRewriteUncond (the unguarded rewrite loses a write stamped before it).
     */
    protected boolean pausesRemovalRewrite() {
        return true;
    }

    /**
     * Whether a removal rewrite writes home's copy instead of the newest copy of every server's. Overridden
     * only by the tests that seed the spec's BugRewriteHomeCopy (a write that ran on replicas only is lost).
     */
    protected boolean rewritesHomeCopy() {
        return false;
    }

    /**
     * Whether this rack's switch may stamp a rewrite of {@code key}: always in one rack; in a chain (§7)
     * only where the rack heads the key's chain too, since only the head stamps a key's versions (a tail's
     * stamp could be the version the head gives a later write).
     */
    protected boolean mayRewriteToEndRemoval(byte[] key) {
        return true;
    }

    long now() {
        return ctx.clock().nowNanos();
    }

    long nextRequestId() {
        return nextRequestId++ & 0xffff_ffffL;
    }

    long drainNanos() {
        return config.rack().drainNanos();
    }

    long retryNanos() {
        return config.retryNanos();
    }

    int homeIndex(byte[] key) {
        return config.rack().indexOf(config.rack().ring().ownerOf(key));
    }

    int hostOfIndex(int index) {
        return config.rack().hostOf(index);
    }

    List<Integer> serverHosts() {
        return config.rack().servers();
    }

    List<Integer> serverHostsExcept(int index) {
        List<Integer> out = new ArrayList<>(config.rack().servers());
        out.remove(index);
        return out;
    }

    /** The port of this controller's switch towards {@code host}. */
    int portOf(int host) {
        return config.portOfHost().applyAsInt(host);
    }

    List<Integer> clientHosts() {
        return config.clients();
    }

    List<Integer> serverAndControllerHosts() {
        List<Integer> out = new ArrayList<>(config.rack().servers());
        out.add(ctx.hostNumber());
        return out;
    }

    long allServersMask() {
        return (1L << config.rack().servers().size()) - 1;
    }

    EntrySpec rkeysEntry(byte[] key, int index) {
        return new EntrySpec(DirectoryNames.RKEYS, List.of(new Match.Exact(new BigInteger(1, key))), 0,
                DirectoryNames.SET_DIR_INDEX, List.of(BigInteger.valueOf(index)));
    }

    /** Everything a fresh switch needs besides routes: server addresses and count, clone session, threshold. */
    void programTables(SwitchControl c) {
        List<Integer> servers = config.rack().servers();
        for (int i = 0; i < servers.size(); i++) {
            int host = servers.get(i);
            c.addEntry(new EntrySpec(DirectoryNames.SERVER_ADDRESS, List.of(Match.exact(i)), 0,
                    DirectoryNames.SET_SERVER_ADDRESS, List.of(BigInteger.valueOf(RackAddressing.hostIp(host) & 0xffff_ffffL),
                            BigInteger.valueOf(RackAddressing.hostMac(host)))));
        }
        c.registerWrite(DirectoryNames.SERVER_COUNT, 0, BigInteger.valueOf(servers.size()));
        if (config.rackGate()) {
            for (int host : servers) {
                c.addEntry(new EntrySpec(DirectoryNames.RACK_SERVERS, List.of(Match.exact(RackAddressing.hostIp(host)
                        & 0xffff_ffffL)), 0, DirectoryNames.RACK_MEMBER, List.of()));
            }
            c.registerWrite(DirectoryNames.RACK_GATE, 0, BigInteger.ONE);
        }
        c.cloneSessionSet(DirectoryNames.CLONE_SESSION, dev.innet.protocol.RackPorts.CPU_PORT);
        if (config.hotThreshold() > 0) {
            c.registerWrite(DirectoryNames.HOT_THRESHOLD, 0, BigInteger.valueOf(config.hotThreshold()));
        }
    }

    void sendToHost(int host, InnetMessage m) {
        int me = ctx.hostNumber();
        ctx.network().send(new UdpFrame(RackAddressing.hostMac(host), RackAddressing.hostMac(me), RackAddressing.hostIp(me),
                RackAddressing.hostIp(host), CONTROL_SOURCE_PORT, PegasusOp.PORT, m.encode()));
    }

    /**
     * A directory command to the switch: a frame into the CPU port, which the switch acts on and answers
     * to the sender whatever its destination (P-3, P-10, P-17). It is addressed to the first server, not
     * to the controller's own address: on a live rack the kernel loops a datagram to its own address back
     * inside the host, so it would never reach the switch (found on the live rack, docs/live-rack.md).
     */
    void packetOut(int op, long reqId, byte[] key, int server) {
        packetOut(op, reqId, key, server, 0, 0);
    }

    /** A packet-out with a version and extension flags (ADD_KEY with {@link PegasusExt#FLAG_COMPLETED_GIVEN}). */
    void packetOut(int op, long reqId, byte[] key, int server, long version, int pflags) {
        sendToHost(config.rack().hostOf(0), PegasusPacket.message(op, 0, 0, reqId, key, version,
                new PegasusExt(0, 0, server, pflags), new byte[0]));
    }

    /**
     * Whether ADD_KEY is given the key's newest version (home's, read after the drain) rather than letting
     * the switch take ver_next - 1: in a chain (§7) a rack's ver_next also counts the versions of the keys
     * it heads, so it bounds nothing of the versions another head stamps for the keys this rack ends.
     * Overridden only by a seeded-bug test.
     */
    protected boolean addsKeysAtHomesVersion() {
        return config.rackGate();
    }

    void rememberReplicated(byte[] key) {
        Set<String> keys = replicatedKeySet();
        keys.add(hex(key));
        saveReplicated(keys);
    }

    void keyAdded(byte[] key, int index) {
        slotState.put(index, DirectoryNames.KEY_ACTIVE);
        count("admissions");
    }

    void keyMarked(int index) {
        slotState.put(index, DirectoryNames.KEY_MARKED);
        count("removals");
    }

    /** Whether slot {@code index} holds {@code key}, marked for removal. */
    boolean awaitingRemoval(byte[] key, int index) {
        return hex(key).equals(slots.get(index)) && slotState.get(index) == DirectoryNames.KEY_MARKED;
    }

    void removalRewriteDone(byte[] key, int index, boolean rewritten) {
        rewriting.remove(index);
        markedPeriods.remove(index);
        if (rewritten) {
            count("removalRewrites");
            ctx.log("pegasus removal of " + hex(key) + " ended by a rewrite");
        }
    }

    void keyForgotten(byte[] key, int index) {
        slots.remove(index);
        slotState.remove(index);
        markedPeriods.remove(index);
        Set<String> keys = replicatedKeySet();
        keys.remove(hex(key));
        saveReplicated(keys);
        count("forgotten");
    }

    /**
     * Records one attempt of a removal rewrite as it is sent (the spec's RemovalRewrite, placed by trace
     * validation where the switch stamps it): the key, home's host, the request id, {@code exp} (the version
     * home's copy had when read), the server whose copy is written, that copy's version, whether it is a
     * tombstone (or no copy: a DELETE) and the value written.
     */
    void removalRewriteSent(byte[] key, int home, long reqId, long exp, int fromHost, long fromVersion,
            boolean deleted, byte[] value) {
        ctx.trace(dev.innet.sim.TraceEvent.of(dev.innet.pegasus.PegasusTraceEvents.CONTROLLER_REMOVAL_REWRITE)
                .with("key", hex(key)).with("home", hostOfIndex(home)).with("reqId", reqId).with("exp", exp)
                .with("from", fromHost).with("fromVer", fromVersion).with("deleted", deleted)
                .with("value", java.util.HexFormat.of().formatHex(value)));
    }

    void virtualWriteSent(byte[] key, long version, int home, long targets, long reqId) {
        count("virtualWrites");
        ctx.trace(dev.innet.sim.TraceEvent.of(dev.innet.pegasus.PegasusTraceEvents.CONTROLLER_VIRTUAL_WRITE)
                .with("key", hex(key)).with("ver", version).with("home", hostOfIndex(home)).with("fwd", targets)
                .with("reqId", reqId));
    }

    void switchRecovered(long verNext) {
        saveReplicated(new LinkedHashSet<>());
        open = true;
        count("recoveries");
        ctx.log("pegasus switch recovered: ver_next " + verNext);
    }

    // ------------------------------------------------------------------ state

    private List<byte[]> replicatedKeys() {
        return replicatedKeySet().stream().map(k -> HexFormat.of().parseHex(k)).toList();
    }

    private Set<String> replicatedKeySet() {
        Set<String> keys = new LinkedHashSet<>();
        ctx.durable().get(DURABLE_REPLICATED).ifPresent(b -> {
            for (String k : new String(b, StandardCharsets.US_ASCII).split(",")) {
                if (!k.isEmpty()) {
                    keys.add(k);
                }
            }
        });
        return keys;
    }

    private void saveReplicated(Set<String> keys) {
        ctx.durable().put(DURABLE_REPLICATED, String.join(",", keys).getBytes(StandardCharsets.US_ASCII));
        ctx.durable().sync();
    }

    private Integer slotOf(String hexKey) {
        for (Map.Entry<Integer, String> e : slots.entrySet()) {
            if (e.getValue().equals(hexKey)) {
                return e.getKey();
            }
        }
        return null;
    }

    private static String hex(byte[] key) {
        return HexFormat.of().formatHex(key);
    }

    private void count(String name) {
        counters.merge(name, 1L, Long::sum);
    }

    @Override
    public Map<String, Long> counters() {
        return new TreeMap<>(counters);
    }
}
