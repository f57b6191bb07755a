package dev.innet.distcache.controller;

import dev.innet.distcache.DistCacheNetwork;
import dev.innet.distcache.DistCacheTraceEvents;
import dev.innet.distcache.wire.DcExt;
import dev.innet.distcache.wire.DcOp;
import dev.innet.kv.ConsistentHashRing;
import dev.innet.kv.PacketPrologue;
import dev.innet.protocol.NodeCounters;
import dev.innet.protocol.RackSpec;
import dev.innet.protocol.Topology;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.TraceEvent;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The DistCache controller and the cache switches' agents, one node on the client ToR's CPU port, with
 * a control-plane handle on every switch (§4.1 "Cache Controller", §4.3 "Cache update", §4.4):
 * <ul>
 *   <li><b>allocation</b>: programs each switch's role (node, layer, client ToR), the two partitions
 *       (the upper layer's CRC buckets, {@link UpperPartition}; the lower layer as the servers' racks,
 *       {@code server_rack}), forwarding by host and by cache node along shortest paths of the
 *       {@link Topology}, and the hot-report clone session;</li>
 *   <li><b>hot keys</b>: a switch's HOT report (its Count-Min sketch over reads of uncached keys of its
 *       partition) makes the agent insert the key invalid with a fresh insertion token and ask the key's
 *       server for the fill (FETCH), retried while the copy stays unfilled (CacheInsert); a full cache
 *       first evicts its least-read key (CacheEvict);</li>
 *   <li><b>failure</b>: it polls every switch; a cache switch that is down loses its copies, routes avoid
 *       it, and a spine's buckets are dealt to the live spines; when it is back (empty) it is programmed
 *       again and its buckets return, after the keys of those buckets were evicted from their temporary
 *       owners (CacheEvict). Evicting first, then moving the buckets, all in one handler, means no copy
 *       that stopped receiving its key's invalidations can answer a read.</li>
 * </ul>
 * Insertion tokens are unique across insertions and controller incarnations (incarnation in the high
 * byte), and across switch incarnations because the controller never reuses one.
 */
public final class DistCacheController implements Node, NodeCounters {
    static final String IPV4_FORWARD = "MyIngress.ipv4_forward";
    static final String NODE_FORWARD = "MyIngress.node_forward";
    static final String SERVER_RACK = "MyIngress.server_rack";
    static final String CACHE_LOOKUP = "MyIngress.cache_lookup";
    static final String SET_EGRESS_PORT = "MyIngress.set_egress_port";
    static final String SET_LOWER_NODE = "MyIngress.set_lower_node";
    static final String SET_CACHE_INDEX = "MyIngress.set_cache_index";
    static final int CLONE_SESSION = 100;
    static final int FETCH_ATTEMPTS = 5;
    /**
     * A cached copy found invalid at two polls this many fetch-retry periods apart is filled again
     * (CacheRefetch): a write's phase 1 makes a copy invalid for about one round trip, a lost phase-2
     * update (sent once) or a fill refused by the version guard for as long as it stays cached.
     */
    static final int REFETCH_AFTER_FETCH_PERIODS = 4;

    /**
     * Timing of the controller's loops. {@code refetch}: re-fill copies that stay invalid (CacheRefetch); false
     * only as a test's seeded gap.
     */
    public record Settings(long pollNanos, long fetchRetryNanos, long counterResetNanos, int cacheCapacity,
            int hotThreshold, boolean refetch) {
        public Settings {
            if (pollNanos <= 0 || fetchRetryNanos <= 0 || counterResetNanos <= 0) {
                throw new IllegalArgumentException("controller periods must be positive");
            }
            if (cacheCapacity < 1 || cacheCapacity > 16384) {
                throw new IllegalArgumentException("cache capacity must be 1..16384 per switch");
            }
        }

        public Settings(long pollNanos, long fetchRetryNanos, long counterResetNanos, int cacheCapacity, int hotThreshold) {
            this(pollNanos, fetchRetryNanos, counterResetNanos, cacheCapacity, hotThreshold, true);
        }
    }

    private final RackSpec rack;
    private final DistCacheNetwork network;
    private final Topology topology;
    private final Map<String, SwitchHandle> handles;
    private final Settings settings;

    private NodeContext ctx;
    private ConsistentHashRing ring;
    private UpperPartition upper;
    private final Map<String, Integer> programmedGeneration = new TreeMap<>();
    private final TreeSet<String> failed = new TreeSet<>();
    /** node -> key hex -> cache index, for the switch's current incarnation */
    private final Map<Integer, Map<String, Integer>> cached = new TreeMap<>();
    private final Map<Integer, TreeSet<Integer>> freeIndices = new TreeMap<>();
    private final Map<Long, Insertion> insertions = new TreeMap<>();
    /** node -> key hex -> when a poll first found the copy invalid with no fill of it pending */
    private final Map<Integer, Map<String, Long>> invalidSince = new TreeMap<>();
    private final Map<String, Long> counters = new LinkedHashMap<>();
    private long pollTimer;
    private long resetTimer;
    private long nextToken;

    private record Insertion(int node, int layer, byte[] key, int index, long token, int attempt) {}

    public DistCacheController(RackSpec rack, DistCacheNetwork network, Topology topology,
            Map<String, SwitchHandle> handles, Settings settings) {
        this.rack = rack;
        this.network = network;
        this.topology = topology;
        this.handles = Map.copyOf(handles);
        this.settings = settings;
    }

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        if (context.incarnation() > 255) {
            throw new IllegalStateException("insertion tokens reserve 8 bits for the controller's incarnation");
        }
        this.nextToken = ((long) context.incarnation() << 24) | 1;
        this.ring = new ConsistentHashRing(rack.servers());
        this.upper = new UpperPartition(network.spines());
        // trace validation derives the spec's Place (each key's home node per layer) from these
        context.trace(TraceEvent.of(DistCacheTraceEvents.CONTROLLER_START).with("spines", network.spines())
                .with("leaves", network.leaves()).with("servers", rack.servers().stream().map(String::valueOf)
                        .collect(java.util.stream.Collectors.joining(","))));
        for (int node : network.cacheNodes().keySet()) {
            cached.put(node, new TreeMap<>());
            freeIndices.put(node, allIndices());
        }
        // A restarted controller finds running switches it did not program in this incarnation: it
        // reprograms them (equal state) and, not knowing their caches, clears them (programRole).
        poll();
        this.resetTimer = context.timers().schedule(settings.counterResetNanos());
    }

    private TreeSet<Integer> allIndices() {
        TreeSet<Integer> free = new TreeSet<>();
        for (int i = 0; i < settings.cacheCapacity(); i++) {
            free.add(i);
        }
        return free;
    }

    @Override
    public void onTimer(long timerId) {
        if (timerId == pollTimer) {
            poll();
        } else if (timerId == resetTimer) {
            resetCounters();
            resetTimer = ctx.timers().schedule(settings.counterResetNanos());
        } else {
            Insertion ins = insertions.remove(timerId);
            if (ins != null) {
                retryFetch(ins);
            }
        }
    }

    @Override
    public void onPacket(byte[] bytes) {
        int me = RackAddressing.hostIp(ctx.hostNumber());
        InnetPacket packet = PacketPrologue.decodeOrDrop(bytes, f -> f.dstIp() == me && f.dstPort() == DcOp.PORT,
                () -> count("malformed"));
        if (packet == null) {
            return;
        }
        InnetMessage msg = packet.message();
        DcExt ext = DcExt.of(msg);
        if (ext == null || msg.op() != DcOp.HOT) {
            count("ignored");
            return;
        }
        count("hotReports");
        insert(ext.node(), ext.layer(), msg.key());
    }

    // ---- switch liveness and programming ---------------------------------------------------------------

    private void poll() {
        List<String> cameUp = new ArrayList<>();
        List<String> wentDown = new ArrayList<>();
        for (String name : topology.switches()) {
            SwitchHandle h = handles.get(name);
            if (!h.isUp()) {
                if (!failed.contains(name)) {
                    wentDown.add(name);
                }
            } else if (!Integer.valueOf(h.generation()).equals(programmedGeneration.get(name))) {
                cameUp.add(name);
            }
        }
        for (String name : wentDown) {
            onFailure(name);
        }
        for (String name : cameUp) {
            onSwitchUp(name);
        }
        if (!wentDown.isEmpty() || !cameUp.isEmpty()) {
            reprogramAll();
        }
        // every poll: a read of record_valid per switch holding copies (a control-plane round trip on a live rack)
        if (settings.refetch()) {
            refetchStuckCopies();
        }
        pollTimer = ctx.timers().schedule(settings.pollNanos());
    }

    /** A switch went down: its copies are gone, a spine's buckets go to the live spines. */
    private void onFailure(String name) {
        count("switchFailures");
        ctx.log("distcache controller: " + name + " is down");
        failed.add(name);
        programmedGeneration.remove(name);
        int node = network.nodeOf(name);
        if (node == 0) {
            return;
        }
        forgetCache(node);
        if (network.layerOf(name) == DcOp.LAYER_UPPER) {
            List<Integer> moved = upper.reassign(node, liveSpines());
            count("bucketsMoved", moved.size());
        }
    }

    /** A switch (re)started: empty; program its role; a spine's home buckets come back to it. */
    private void onSwitchUp(String name) {
        count("switchesProgrammed");
        failed.remove(name);
        int node = network.nodeOf(name);
        if (node != 0) {
            forgetCache(node);
        }
        programRole(name);
        programmedGeneration.put(name, handles.get(name).generation());
        if (node != 0 && network.layerOf(name) == DcOp.LAYER_UPPER) {
            // evict first (the temporary owners stop answering for these buckets) ...
            for (int[] bucketAndOwner : homeBucketsElsewhere(node)) {
                evictBucket(bucketAndOwner[1], bucketAndOwner[0]);
            }
            // ... then move them (partitions rewritten on every switch by reprogramAll, same instant)
            List<int[]> moved = upper.restoreHome(node);
            count("bucketsMoved", moved.size());
        }
    }

    private List<int[]> homeBucketsElsewhere(int node) {
        List<int[]> out = new ArrayList<>();
        int[] owners = upper.owners();
        for (int b = 0; b < owners.length; b++) {
            if (upper.home(b) == node && owners[b] != node && owners[b] != 0) {
                out.add(new int[] {b, owners[b]});
            }
        }
        return out;
    }

    private void evictBucket(int node, int bucket) {
        Map<String, Integer> entries = cached.get(node);
        List<String> gone = new ArrayList<>();
        for (Map.Entry<String, Integer> e : entries.entrySet()) {
            byte[] key = HexFormat.of().parseHex(e.getKey());
            if (UpperPartition.bucket(key) == bucket) {
                gone.add(e.getKey());
            }
        }
        for (String keyHex : gone) {
            evict(node, keyHex);
        }
    }

    /** CacheEvict: the lookup entry goes first, so no read can hit the copy any more; then it is invalid. */
    private void evict(int node, String keyHex) {
        int index = cached.get(node).remove(keyHex);
        freeIndices.get(node).add(index);
        count("evictions");
        traceEviction(DistCacheTraceEvents.CACHE_EVICT_BEGIN, node, keyHex);
        SwitchControl c = controlOf(network.cacheNodes().get(node));
        if (c != null) {
            c.deleteEntry(CACHE_LOOKUP, List.of(keyMatch(HexFormat.of().parseHex(keyHex))), 0);
            c.registerWrite("MyIngress.record_valid", index, BigInteger.ZERO);
        }
        traceEviction(DistCacheTraceEvents.CACHE_EVICT, node, keyHex);
    }

    /** The cached key of {@code node} read least since the last counter reset (the eviction victim, §4.3). */
    private String leastRead(int node, SwitchControl c) {
        String victim = null;
        long least = Long.MAX_VALUE;
        for (Map.Entry<String, Integer> e : cached.get(node).entrySet()) {
            long reads = c.registerRead("MyIngress.cached_frequency", e.getValue()).longValue();
            if (reads < least) {
                least = reads;
                victim = e.getKey();
            }
        }
        return victim;
    }

    private void forgetCache(int node) {
        cached.get(node).clear();
        freeIndices.put(node, allIndices());
        insertions.values().removeIf(i -> i.node() == node);
    }

    private List<Integer> liveSpines() {
        List<Integer> live = new ArrayList<>();
        for (int i = 1; i <= network.spines(); i++) {
            if (!failed.contains(DistCacheNetwork.spine(i)) && handles.get(DistCacheNetwork.spine(i)).isUp()) {
                live.add(i);
            }
        }
        return live;
    }

    private void programRole(String name) {
        SwitchControl c = controlOf(name);
        if (c == null) {
            return;
        }
        int node = network.nodeOf(name);
        // A switch this incarnation did not program may still hold a previous controller's entries and
        // copies: the lookup entries go first (no read hits them any more), then every copy is invalid
        // and waits for no fill.
        c.clearTable(CACHE_LOOKUP);
        c.registerReset("MyIngress.record_valid");
        c.registerReset("MyIngress.record_token");
        c.clearTable(SERVER_RACK);
        c.registerWrite("MyIngress.dc_node", 0, BigInteger.valueOf(node));
        c.registerWrite("MyIngress.dc_layer", 0, BigInteger.valueOf(network.layerOf(name)));
        c.registerWrite("MyIngress.dc_routes_reads", 0,
                BigInteger.valueOf(name.equals(DistCacheNetwork.CLIENT_TOR) ? 1 : 0));
        if (rack.hotThreshold() > 0) {
            c.registerWrite("MyIngress.dc_hot_threshold", 0, BigInteger.valueOf(rack.hotThreshold()));
        }
        for (int s = 0; s < rack.servers().size(); s++) {
            int server = rack.servers().get(s);
            c.addEntry(new EntrySpec(SERVER_RACK, List.of(Match.exact(RackAddressing.hostIp(server) & 0xffffffffL)), 0,
                    SET_LOWER_NODE, List.of(BigInteger.valueOf(DistCacheNetwork.LEAF_NODE_BASE + network.rackOfServer(s)))));
        }
    }

    /** Forwarding, node routes, clone session and the upper partition on every live switch. */
    private void reprogramAll() {
        int[] owners = upper.owners();
        for (String name : topology.switches()) {
            SwitchControl c = controlOf(name);
            if (c == null || failed.contains(name)) {
                continue;
            }
            c.clearTable(IPV4_FORWARD);
            for (int host : topology.hosts().keySet()) {
                int port = topology.portTowardHost(name, host, failed);
                if (port >= 0) {
                    c.addEntry(new EntrySpec(IPV4_FORWARD, List.of(Match.exact(RackAddressing.hostIp(host) & 0xffffffffL)), 0,
                            SET_EGRESS_PORT, List.of(BigInteger.valueOf(port))));
                }
            }
            c.clearTable(NODE_FORWARD);
            for (Map.Entry<Integer, String> n : network.cacheNodes().entrySet()) {
                int port = topology.portTowardSwitch(name, n.getValue(), failed);
                if (port >= 0) {
                    c.addEntry(new EntrySpec(NODE_FORWARD, List.of(Match.exact(n.getKey())), 0, SET_EGRESS_PORT,
                            List.of(BigInteger.valueOf(port))));
                }
            }
            int toController = topology.portTowardHost(name, rack.controllerHost(), failed);
            if (toController >= 0) {
                c.cloneSessionSet(CLONE_SESSION, toController);
            }
            int start = 0;
            for (int b = 1; b <= owners.length; b++) {
                if (b == owners.length || owners[b] != owners[start]) {
                    c.registerWrite("MyIngress.upper_partition", start, b - 1, BigInteger.valueOf(owners[start]));
                    start = b;
                }
            }
        }
    }

    private void resetCounters() {
        for (Map.Entry<Integer, String> n : network.cacheNodes().entrySet()) {
            SwitchControl c = controlOf(n.getValue());
            if (c == null) {
                continue;
            }
            c.registerWrite("MyIngress.load_count", 0, BigInteger.ZERO);
            for (int r = 0; r < 4; r++) {
                c.registerReset("MyIngress.dc_cms_" + r);
            }
            c.registerReset("MyIngress.cached_frequency");
        }
    }

    /** The switch's control plane, or null while it is down (the next poll handles the failure). */
    private SwitchControl controlOf(String name) {
        SwitchHandle h = handles.get(name);
        return h.isUp() ? h.control() : null;
    }

    // ---- agents: insertion of hot keys ----------------------------------------------------------------

    private void insert(int node, int layer, byte[] key) {
        String name = network.cacheNodes().get(node);
        if (name == null || network.layerOf(name) != layer || failed.contains(name)
                || !Integer.valueOf(handles.get(name).generation()).equals(programmedGeneration.get(name))) {
            count("hotReportsIgnored");
            return;
        }
        // only the key's current owner in that layer may cache it (a report may predate a re-partition)
        int owner = layer == DcOp.LAYER_UPPER ? upper.ownerOfKey(key)
                : DistCacheNetwork.LEAF_NODE_BASE + network.rackOfServer(rack.servers().indexOf(ring.ownerOf(key)));
        String keyHex = HexFormat.of().formatHex(key);
        if (owner != node || cached.get(node).containsKey(keyHex)) {
            count("hotReportsIgnored");
            return;
        }
        SwitchControl c = controlOf(name);
        if (c == null) {
            return;
        }
        TreeSet<Integer> free = freeIndices.get(node);
        if (free.isEmpty()) {
            // full: the hot key replaces the cached key read least (its reads since the last reset are
            // below the hot key's estimate, which just reached the threshold, unless the cache is all hot)
            String victim = leastRead(node, c);
            if (victim == null) {
                count("cacheFull");
                return;
            }
            evict(node, victim);
        }
        int index = free.pollFirst();
        long token = nextToken++;
        // CacheInsert: invalid, nothing seen, waiting for this token's fill; then the lookup entry
        c.registerWrite("MyIngress.record_valid", index, BigInteger.ZERO);
        c.registerWrite("MyIngress.record_seen", index, BigInteger.ZERO);
        c.registerWrite("MyIngress.record_token", index, BigInteger.valueOf(token));
        c.registerWrite("MyIngress.cached_frequency", index, BigInteger.ZERO);
        c.addEntry(new EntrySpec(CACHE_LOOKUP, List.of(keyMatch(key)), 0, SET_CACHE_INDEX,
                List.of(BigInteger.valueOf(index))));
        cached.get(node).put(keyHex, index);
        count("insertions");
        ctx.trace(TraceEvent.of(DistCacheTraceEvents.CACHE_INSERT).with("node", node).with("layer", layer)
                .with("key", keyHex).with("token", token));
        sendFetch(new Insertion(node, layer, key, index, token, 1));
    }

    private void sendFetch(Insertion ins) {
        count("fetches");
        int server = ring.ownerOf(ins.key());
        InnetMessage fetch = DcExt.message(DcOp.FETCH, 0, 0, ins.token(), ins.key(), 0,
                DcExt.target(ins.layer(), ins.node(), ins.token()), new byte[0]);
        int me = ctx.hostNumber();
        ctx.network().send(new UdpFrame(RackAddressing.hostMac(server), RackAddressing.hostMac(me),
                RackAddressing.hostIp(me), RackAddressing.hostIp(server), DcOp.PORT, DcOp.PORT, fetch.encode()));
        insertions.put(ctx.timers().schedule(settings.fetchRetryNanos()), ins);
    }

    /** The fill may be lost (or refused after a re-partition): ask again while the copy waits for it. */
    private void retryFetch(Insertion ins) {
        String name = network.cacheNodes().get(ins.node());
        Integer index = cached.get(ins.node()).get(HexFormat.of().formatHex(ins.key()));
        SwitchControl c = controlOf(name);
        if (index == null || index != ins.index() || c == null) {
            return;
        }
        boolean waiting = c.registerRead("MyIngress.record_token", index).longValue() == ins.token();
        if (!waiting) {
            return;   // filled
        }
        if (ins.attempt() >= FETCH_ATTEMPTS) {
            count("insertionsAbandoned");
            String keyHex = HexFormat.of().formatHex(ins.key());
            traceEviction(DistCacheTraceEvents.CACHE_EVICT_BEGIN, ins.node(), keyHex);
            cached.get(ins.node()).remove(keyHex);
            freeIndices.get(ins.node()).add(index);
            c.deleteEntry(CACHE_LOOKUP, List.of(keyMatch(ins.key())), 0);
            traceEviction(DistCacheTraceEvents.CACHE_EVICT, ins.node(), keyHex);
            return;
        }
        sendFetch(new Insertion(ins.node(), ins.layer(), ins.key(), ins.index(), ins.token(), ins.attempt() + 1));
    }

    /**
     * CacheRefetch: a cached copy that stays invalid with no fill of it pending (a lost phase-2 update, a fill
     * the version guard refused) misses every read for as long as it stays cached. Once two polls at least
     * {@link #REFETCH_AFTER_FETCH_PERIODS} fetch periods apart found it so, it gets a fresh token and its server
     * is asked for a fill, as for an insertion, keeping what the copy has seen (its version guard). An update
     * still in flight no longer matches the token and is refused; the fill carries the same record or a newer
     * one (specs/distcache/DistCache.tla, CacheRefetch; DistCacheLive.tla shows the copy stuck without it).
     */
    private void refetchStuckCopies() {
        long now = ctx.clock().nowNanos();
        long after = settings.fetchRetryNanos() * REFETCH_AFTER_FETCH_PERIODS;
        Set<String> pending = new HashSet<>();
        for (Insertion ins : insertions.values()) {
            pending.add(ins.node() + "/" + HexFormat.of().formatHex(ins.key()));
        }
        for (Map.Entry<Integer, Map<String, Integer>> e : cached.entrySet()) {
            int node = e.getKey();
            Map<String, Long> since = invalidSince.computeIfAbsent(node, n -> new TreeMap<>());
            SwitchControl c = controlOf(network.cacheNodes().get(node));
            if (c == null || e.getValue().isEmpty()) {
                since.clear();
                continue;
            }
            List<BigInteger> valid = c.registerRead("MyIngress.record_valid", 0, settings.cacheCapacity() - 1);
            since.keySet().retainAll(e.getValue().keySet());
            for (Map.Entry<String, Integer> copy : e.getValue().entrySet()) {
                String keyHex = copy.getKey();
                int index = copy.getValue();
                if (valid.get(index).signum() != 0 || pending.contains(node + "/" + keyHex)) {
                    since.remove(keyHex);
                    continue;
                }
                Long first = since.putIfAbsent(keyHex, now);
                if (first != null && now - first >= after) {
                    since.remove(keyHex);
                    refetch(c, node, keyHex, index);
                }
            }
        }
    }

    private void refetch(SwitchControl c, int node, String keyHex, int index) {
        long token = nextToken++;
        int layer = network.layerOf(network.cacheNodes().get(node));
        // two events bracket the token write: on a live rack it takes effect at the switch some time after the
        // first and before the second, and updates the switch handles meanwhile may meet either token
        ctx.trace(TraceEvent.of(DistCacheTraceEvents.CACHE_REFETCH_BEGIN).with("node", node).with("layer", layer)
                .with("key", keyHex).with("token", token));
        c.registerWrite("MyIngress.record_token", index, BigInteger.valueOf(token));
        count("refetches");
        ctx.trace(TraceEvent.of(DistCacheTraceEvents.CACHE_REFETCH).with("node", node).with("layer", layer)
                .with("key", keyHex).with("token", token));
        sendFetch(new Insertion(node, layer, HexFormat.of().parseHex(keyHex), index, token, 1));
    }

    /**
     * CacheEvict of the copy of {@code keyHex} at {@code node}: {@code event} is the begin (before the lookup
     * entry's deletion is sent) or the end (after it was acknowledged) of the window in which it takes effect.
     */
    private void traceEviction(String event, int node, String keyHex) {
        ctx.trace(TraceEvent.of(event).with("node", node)
                .with("layer", network.layerOf(network.cacheNodes().get(node))).with("key", keyHex));
    }

    private static Match keyMatch(byte[] key) {
        return new Match.Exact(new BigInteger(1, key));
    }

    private void count(String name) {
        count(name, 1);
    }

    private void count(String name, long n) {
        counters.merge(name, n, Long::sum);
    }

    /**
     * One poll of the switches, the work of the poll timer, for a driver that steps the controller by
     * hand (the spec replay, after it restarted a switch): the scheduled poll is replaced by this one.
     */
    public void pollNow() {
        ctx.timers().cancel(pollTimer);
        poll();
    }

    /**
     * The agent of {@code node} evicts {@code key} (CacheEvict). The controller's own policy picks
     * victims (least read, or a bucket moving back); the spec abstracts that choice, so its replay
     * names the key. Fails if the key is not cached there.
     */
    public void evictKey(int node, byte[] key) {
        String keyHex = HexFormat.of().formatHex(key);
        if (!cached.getOrDefault(node, Map.of()).containsKey(keyHex)) {
            throw new IllegalArgumentException("node " + node + " does not cache " + keyHex);
        }
        evict(node, keyHex);
    }

    /** The spec's CacheRefetch of exactly this copy, at once (the spec replay's choice; the agent's own waits). */
    public void refetchKey(int node, byte[] key) {
        String keyHex = HexFormat.of().formatHex(key);
        Integer index = cached.getOrDefault(node, Map.of()).get(keyHex);
        SwitchControl c = controlOf(network.cacheNodes().get(node));
        if (index == null || c == null) {
            throw new IllegalArgumentException("node " + node + " does not cache " + keyHex);
        }
        refetch(c, node, keyHex, index);
    }

    /** For tests: per cache node, the keys (hex) the controller believes cached there and their indices. */
    public Map<Integer, Map<String, Integer>> cachedCopies() {
        Map<Integer, Map<String, Integer>> copy = new TreeMap<>();
        cached.forEach((node, keys) -> copy.put(node, new TreeMap<>(keys)));
        return copy;
    }

    /** For tests: keys the controller believes cached at {@code node}. */
    public int cachedKeys(int node) {
        return cached.getOrDefault(node, Map.of()).size();
    }

    /** For tests: the upper partition's owner of each bucket. */
    public int[] upperOwners() {
        return upper.owners();
    }

    @Override
    public Map<String, Long> counters() {
        return new TreeMap<>(counters);
    }
}
