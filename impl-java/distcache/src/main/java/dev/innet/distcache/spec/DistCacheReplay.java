package dev.innet.distcache.spec;

import static dev.innet.kv.spec.ReplayFrames.decode;
import static dev.innet.protocol.spec.TlaValues.asLong;
import static dev.innet.protocol.spec.TlaValues.asRecord;
import static dev.innet.protocol.spec.TlaValues.name;

import dev.innet.distcache.DistCacheNetwork;
import dev.innet.distcache.DistCacheProtocol;
import dev.innet.distcache.client.DistCacheClient;
import dev.innet.distcache.controller.DistCacheController;
import dev.innet.distcache.server.DistCacheServer;
import dev.innet.distcache.wire.DcExt;
import dev.innet.distcache.wire.DcOp;
import dev.innet.kv.ConsistentHashRing;
import dev.innet.kv.KvOp;
import dev.innet.kv.cache.CacheRegisters;
import dev.innet.kv.client.ClientConfig;
import dev.innet.kv.spec.ReplayClients;
import dev.innet.kv.spec.WriteIds;
import dev.innet.kv.store.MemoryRecordStore;
import dev.innet.kv.store.RecordStore;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.kv.store.StoredRecord;
import dev.innet.protocol.KvResult;
import dev.innet.protocol.RackPorts;
import dev.innet.protocol.RackSpec;
import dev.innet.protocol.Topology;
import dev.innet.protocol.spec.ReplayContext;
import dev.innet.protocol.spec.ReplayNetwork;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecReplay;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.protocol.spec.SpecStep.ModelValue;
import dev.innet.protocol.spec.SpecStep.TlaFunction;
import dev.innet.protocol.spec.TlaValues;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * DistCache.tla replayed on the implementation: p4/distcache.p4 on one replay target per switch of a
 * leaf-spine network ({@link DistCacheNetwork}: one spine, the upper layer; one leaf per spec leaf node,
 * the lower layer, each the ToR of the rack of the server owning that node's keys; the client ToR), the
 * real {@link DistCacheServer}s, a {@link DistCacheClient} per spec client (one attempt, so a timeout is
 * the spec's give-up) and the {@link DistCacheController} with its agents. Frames cross the switches along
 * the topology's cables; the replay holds each one where the spec's network holds the message it is
 * (docs/conformance.md, "DistCache"):
 * <ul>
 *   <li>requests and acknowledgements for a server (put, get, fetch, invA) after the last switch, at the
 *       server's port, delivered by the server's step;</li>
 *   <li>the servers' invalidations and updates (inv, upd) at the server's port before its leaf, so the
 *       whole way to the copy, the copy's switch included, is the cache step that delivers them;</li>
 *   <li>replies reach their client in the step that sends them (the spec's choice).</li>
 * </ul>
 *
 * <p>The spec's nodes are the models' convention: the spine layer puts every key on {@code n1}, the leaf
 * layer {@code k1} on {@code n2} and every other key on {@code n3}. Every {@code CacheCrash} checks that
 * the spec's state after it agrees with this placement, so a model with another one is reported as not
 * replayable there.
 */
public final class DistCacheReplay implements SpecReplay {
    static final String UPPER = "spine";
    static final String LOWER = "leaf";
    private static final int FIRST_CLIENT = 100;
    private static final int CONTROLLER = RackPorts.CONTROLLER_HOST;
    /** High enough that no switch reports a key hot: insertions are the spec's CacheInsert only. */
    private static final int NEVER_HOT = Integer.MAX_VALUE;
    /** The controller's periods and the clients' timeout: time stands still, the replay fires the timers it means to. */
    private static final long LONG_PERIOD = 1_000_000_000L;
    /** Switches a frame may cross before the replay calls it a loop. */
    private static final int MAX_HOPS = 16;
    /** What the spec's {@code crec}, {@code seen} and {@code tok} of a copy that is not cached (or not valid) are compared as. */
    private static final String NOT_SHOWN = "not cached";
    private static final String UPDATE_OUTCOME = "MyIngress.update_outcome";

    /** The spec's actions this replay does not perform, with the reasons (none: every action of Next is replayed). */
    static final Map<String, String> NOT_REPLAYABLE = Map.of();

    /** Where a frame in flight waits. */
    private enum Route {
        /** At a server's port, past the last switch: the server's step delivers it. */
        AT_SERVER,
        /** A server's invalidation or update at the server's port, before its leaf switch. */
        FROM_SERVER
    }

    /** Builds a storage server (tests substitute one with a seeded bug). */
    @FunctionalInterface
    public interface ServerFactory {
        DistCacheServer create(List<Integer> servers, RecordStoreOpener stores, long resendNanos);
    }

    private record Delivery(int host, byte[] frame) {}

    private final ReplayTarget firstTarget;
    private final ServerFactory serverFactory;
    private final Map<String, ReplayTarget> switches = new LinkedHashMap<>();
    private final Map<String, SwitchHandle> handles = new LinkedHashMap<>();
    private final Map<String, String[]> cables = new HashMap<>();     // "switch:port" -> {switch, port}
    private final Map<String, Integer> hostAt = new HashMap<>();      // "switch:port" -> host
    private final Map<String, byte[]> keyBytes = new TreeMap<>();
    private final Map<String, String> keyOfHex = new HashMap<>();
    private final Map<String, Integer> serverOfKey = new TreeMap<>();
    private final Map<String, String> leafNodeOfKey = new TreeMap<>();  // spec leaf node of each key
    private final Map<String, String> switchOfNode = new TreeMap<>();   // spec node -> switch name
    private final Map<String, Integer> hostOfClient = new TreeMap<>();
    private final Map<Integer, String> clientOfHost = new HashMap<>();
    private final Map<String, ReplayContext> clientContexts = new HashMap<>();
    private final Map<String, DistCacheClient> clients = new HashMap<>();
    private final Map<String, KvResult> lastResult = new HashMap<>();
    private final Map<Integer, DistCacheServer> servers = new TreeMap<>();
    private final Map<Integer, ReplayContext> serverContexts = new TreeMap<>();
    /** Per client host: request id -> the spec's write or read id of that operation. */
    private final Map<Integer, Map<Long, Long>> opOfRequest = new HashMap<>();
    /** Per key: version -> the write id the server gave it (read from the server's record in phase 1). */
    private final Map<String, Map<Long, Long>> writeOfVersion = new TreeMap<>();
    private final ReplayNetwork<Route> net = new ReplayNetwork<>();
    private DistCacheNetwork network;
    private Topology topology;
    private ReplayContext controllerContext;
    private DistCacheController controller;

    public DistCacheReplay(ReplayTarget target) {
        this(target, DistCacheServer::new);
    }

    /** @param servers the storage servers to replay (tests pass one with a seeded bug) */
    public DistCacheReplay(ReplayTarget target, ServerFactory servers) {
        this.firstTarget = target;
        this.serverFactory = servers;
    }

    // ------------------------------------------------------------------ set-up

    /**
     * One spine (the spec's {@code n1}); a leaf per spec leaf node, whose rack holds the one server that
     * owns that node's keys (server hosts are chosen so that the servers' hash ring puts the keys where
     * the spec's placement does); clients are hosts 100, 101, ... in name order under the client ToR,
     * the controller on its CPU port. Every key starts at its server with the spec's initial record,
     * value 0 with version 0 (loaded into the store before the server starts). The controller's
     * start-up programs every switch.
     */
    @Override
    public void init(SpecStep initial) {
        List<String> keys = TlaValues.domainNames(initial.var("store"));
        for (String k : keys) {
            byte[] key = InnetMessage.key(k);
            keyBytes.put(k, key);
            keyOfHex.put(hex(key), k);
            leafNodeOfKey.put(k, k.equals(keys.getFirst()) ? "n2" : "n3");
            writeOfVersion.put(k, new TreeMap<>(Map.of(0L, 0L)));
        }
        List<String> leafNodes = List.copyOf(new java.util.TreeSet<>(leafNodeOfKey.values()));
        List<Integer> serverHosts = serversFor(leafNodes);
        network = new DistCacheNetwork(1, leafNodes.size());
        ConsistentHashRing ring = new ConsistentHashRing(serverHosts);
        switchOfNode.put("n1", DistCacheNetwork.spine(1));
        for (String k : keys) {
            int owner = ring.ownerOf(keyBytes.get(k));
            serverOfKey.put(k, owner);
            switchOfNode.put(leafNodeOfKey.get(k), DistCacheNetwork.leaf(network.rackOfServer(serverHosts.indexOf(owner))));
        }
        int host = FIRST_CLIENT;
        for (String c : TlaValues.domainNames(initial.var("pend"))) {
            hostOfClient.put(c, host);
            clientOfHost.put(host, c);
            host++;
        }
        RackSpec rack = new RackSpec(serverHosts, List.copyOf(hostOfClient.values()), CONTROLLER, keys.size(), NEVER_HOT,
                LONG_PERIOD, 1, List.of(), LONG_PERIOD, false);
        topology = network.topology(rack);
        buildFabric();
        controllerContext = new ReplayContext(CONTROLLER, 1);
        controller = new DistCacheController(rack, network, topology, handles,
                new DistCacheController.Settings(LONG_PERIOD, LONG_PERIOD, LONG_PERIOD, keys.size(), NEVER_HOT));
        controller.onStart(controllerContext);
        requireControllerSilent("start-up");
        for (int s : serverHosts) {
            RecordStore store = new MemoryRecordStore();
            for (var e : serverOfKey.entrySet()) {
                if (e.getValue() == s) {
                    store.apply(keyBytes.get(e.getKey()), StoredRecord.value(WriteIds.valueOf(0), 0), RecordStore.Ordering.ARRIVAL);
                }
            }
            ReplayContext ctx = new ReplayContext(s, 2);
            DistCacheServer server = serverFactory.create(serverHosts, dir -> store, DistCacheProtocol.DEFAULT_RESEND_NANOS);
            server.onStart(ctx);
            servers.put(s, server);
            serverContexts.put(s, ctx);
        }
        for (var c : hostOfClient.entrySet()) {
            ReplayContext ctx = new ReplayContext(c.getValue(), 3);
            clientContexts.put(c.getKey(), ctx);
            // one attempt: the spec's client gives up after a timeout instead of resending (ClientGiveUp)
            clients.put(c.getKey(), new DistCacheClient(ctx, new ClientConfig(serverHosts, LONG_PERIOD, 1, false,
                    DistCacheClient.SOURCE_PORT), null));
        }
    }

    /**
     * Server hosts, one per spec leaf node (server i in rack i + 1), such that the servers' hash ring
     * gives each key the server of its spec leaf node. Candidates are tried in a fixed order.
     */
    private List<Integer> serversFor(List<String> leafNodes) {
        for (int first = 1; first + leafNodes.size() <= FIRST_CLIENT; first++) {
            List<Integer> hosts = new ArrayList<>();
            for (int i = 0; i < leafNodes.size(); i++) {
                hosts.add(first + i);
            }
            ConsistentHashRing ring = new ConsistentHashRing(hosts);
            boolean fits = true;
            for (var e : leafNodeOfKey.entrySet()) {
                fits &= ring.ownerOf(keyBytes.get(e.getKey())) == hosts.get(leafNodes.indexOf(e.getValue()));
            }
            if (fits) {
                return hosts;
            }
        }
        throw new NotReplayable("no choice of server hosts puts the keys on the servers of their spec leaf nodes");
    }

    /** One replay target per switch of the topology, each with its control-plane handle; the cabling as lookup maps. */
    private void buildFabric() {
        for (String name : topology.switches()) {
            ReplayTarget t = switches.isEmpty() ? firstTarget : firstTarget.another();
            switches.put(name, t);
            SwitchHandle h = new SwitchHandle();
            h.attach(t.control());
            handles.put(name, h);
        }
        for (Topology.Cable c : topology.cables()) {
            cables.put(c.a() + ":" + c.portA(), new String[] {c.b(), String.valueOf(c.portB())});
            cables.put(c.b() + ":" + c.portB(), new String[] {c.a(), String.valueOf(c.portA())});
        }
        for (var h : topology.hosts().entrySet()) {
            hostAt.put(h.getValue().switchName() + ":" + h.getValue().port(), h.getKey());
        }
    }

    private static String hex(byte[] key) {
        return HexFormat.of().formatHex(key);
    }

    // ------------------------------------------------------------------ the fabric

    /**
     * Carries {@code frame} into switch {@code sw} on {@code port} and on across cables, each switch
     * processing it to completion, until every copy has left the fabric at a host port (returned) or
     * was dropped. A frame out of a port cabled to nothing fails the replay.
     */
    private List<Delivery> carry(String sw, int port, byte[] frame, String action) {
        List<Delivery> out = new ArrayList<>();
        ArrayDeque<Object[]> queue = new ArrayDeque<>();
        queue.add(new Object[] {sw, port, frame, 0});
        while (!queue.isEmpty()) {
            Object[] q = queue.poll();
            String at = (String) q[0];
            int hops = (int) q[3];
            if (hops >= MAX_HOPS) {
                throw new ReplayException(action + ": a frame crossed " + MAX_HOPS + " switches (a forwarding loop)");
            }
            for (ReplayTarget.Emitted e : switches.get(at).inject((int) q[1], (byte[]) q[2])) {
                String where = at + ":" + e.port();
                String[] peer = cables.get(where);
                Integer host = hostAt.get(where);
                if (peer != null) {
                    queue.add(new Object[] {peer[0], Integer.parseInt(peer[1]), e.frame(), hops + 1});
                } else if (host != null) {
                    out.add(new Delivery(host, e.frame()));
                } else {
                    throw new ReplayException(action + ": " + at + " emitted " + opName(e.frame()) + " on port " + e.port()
                            + ", which is cabled to nothing");
                }
            }
        }
        return out;
    }

    /** A host's frame into the switch its port is cabled to, and on. */
    private List<Delivery> sendFrom(int host, byte[] frame, String action) {
        Topology.Attachment a = topology.hosts().get(host);
        return carry(a.switchName(), a.port(), frame, action);
    }

    private static String opName(byte[] frame) {
        int op = decode(frame).message().op();
        return switch (op) {
            case DcOp.INV -> "INV";
            case DcOp.INV_ACK -> "INV_ACK";
            case DcOp.UPD -> "UPD";
            case DcOp.FETCH -> "FETCH";
            case DcOp.HOT -> "HOT";
            default -> KvOp.name(op);
        };
    }

    /**
     * Frames that left the fabric: a reply reaches its client now (the spec's replies complete in the
     * step that sends them); a request for a server waits at its port. Nothing else may leave it.
     */
    private void arrive(List<Delivery> deliveries, String action) {
        for (Delivery d : deliveries) {
            String c = clientOfHost.get(d.host());
            if (c != null) {
                clients.get(c).onPacket(d.frame());
            } else if (servers.containsKey(d.host())) {
                net.put(specMessageOf(d.frame()), Route.AT_SERVER, d.frame());
            } else {
                throw new ReplayException(action + ": " + opName(d.frame()) + " reached host " + d.host()
                        + ", which the spec's step sends nothing to");
            }
        }
    }

    /** What a server sent: invalidations and updates wait before its leaf, replies go to their clients. */
    private void fromServer(int server, List<byte[]> sent, String action) {
        for (byte[] f : sent) {
            int op = decode(f).message().op();
            if (op == DcOp.INV || op == DcOp.UPD) {
                net.put(specMessageOf(f), Route.FROM_SERVER, f);
            } else if (op == KvOp.GET_REPLY || op == KvOp.PUT_REPLY) {
                arrive(sendFrom(server, f, action), action);
            } else {
                throw new ReplayException(action + ": server " + server + " sent " + opName(f)
                        + ", which the spec's servers never send");
            }
        }
    }

    private void requireControllerSilent(String when) {
        List<byte[]> sent = controllerContext.takeSent();
        if (!sent.isEmpty()) {
            throw new ReplayException("the controller sent " + sent.size() + " frames at " + when + "; the spec's agents send nothing then");
        }
    }

    // ------------------------------------------------------------------ actions

    @Override
    public void perform(SpecStep before, SpecStep step) {
        String a = step.actionName();
        switch (a) {
            case "ClientWrite" -> clientWrite(step);
            case "ClientReadHit" -> clientRead(step, true);
            case "ClientReadMiss" -> clientRead(step, false);
            case "ClientGiveUp" -> ReplayClients.giveUp(name(step.param("c")), clientContexts.get(name(step.param("c"))),
                    clients.get(name(step.param("c"))));
            case "ServerWrite" -> serverWrite(step);
            case "ServerInvAck" -> serverInvAck(step);
            case "ServerResendInv" -> serverResendInv(step);
            case "ServerGet" -> serverGet(step);
            case "ServerFetch" -> serverFetch(step);
            case "CacheInv" -> cacheInv(step);
            case "CacheUpdate", "CacheUpdateRefused" -> cacheUpdate(step);
            case "CacheInsert" -> cacheInsert(step);
            case "CacheRefetch" -> cacheRefetch(step);
            case "CacheEvict" -> cacheEvict(step);
            case "CacheCrash" -> cacheCrash(before, step);
            case "Lose" -> net.lose(asRecord(step.param("m")));
            default -> throw new NotReplayable(a + ": not an action of DistCache.tla");
        }
    }

    private static boolean dup(SpecStep step) {
        return Boolean.TRUE.equals(step.param("dup"));
    }

    /** The client's frame for one operation, with its request id remembered as the spec's operation id. */
    private byte[] clientFrame(String c, long specOpId, String action) {
        List<byte[]> sent = clientContexts.get(c).takeSent();
        if (sent.size() != 1) {
            throw new ReplayException(action + ": client " + c + " sent " + sent.size() + " frames for one operation");
        }
        opOfRequest.computeIfAbsent(hostOfClient.get(c), h -> new HashMap<>()).put(decode(sent.get(0)).message().reqId(), specOpId);
        return sent.get(0);
    }

    /** Writes go straight to the key's server (DC-11): the PUT must reach it, and only it. */
    private void clientWrite(SpecStep step) {
        String c = name(step.param("c"));
        String k = name(step.param("k"));
        long w = asLong(step.param("w"));
        requireIdle(c, "ClientWrite");
        clients.get(c).put(keyBytes.get(k), WriteIds.valueOf(w), r -> lastResult.put(c, r));
        List<Delivery> out = sendFrom(hostOfClient.get(c), clientFrame(c, w, "ClientWrite"), "ClientWrite");
        expectAt(out, serverOfKey.get(k), "ClientWrite: the PUT must reach the key's server");
        arrive(out, "ClientWrite");
    }

    private void requireIdle(String c, String action) {
        if (clients.get(c).busy()) {
            throw new ReplayException(action + ": client " + c + " still has an operation outstanding");
        }
        lastResult.remove(c);
    }

    private static void expectAt(List<Delivery> out, int host, String what) {
        if (out.size() != 1 || out.get(0).host() != host) {
            List<String> got = new ArrayList<>();
            for (Delivery d : out) {
                got.add(opName(d.frame()) + " to host " + d.host());
            }
            throw new ReplayException(what + "; the switches delivered " + got);
        }
    }

    /**
     * The client's ToR sends the read to layer l's copy: the spec abstracts the loads, so the replay sets
     * the ToR's last stamped loads (node_load) such that DC-1 picks l (lower on a tie, upper when the
     * lower copy's load is higher). A valid copy answers (DC-3) and the reply reaches the client in this
     * step; otherwise the read goes on to the key's server (DC-4) with the layer it was routed to.
     */
    private void clientRead(SpecStep step, boolean hit) {
        String action = step.actionName();
        String c = name(step.param("c"));
        String k = name(step.param("k"));
        String l = (String) step.param("l");
        long r = asLong(step.param("r"));
        requireIdle(c, action);
        SwitchControl tor = switches.get(DistCacheNetwork.CLIENT_TOR).control();
        int upperNode = network.nodeOf(switchOfNode.get("n1"));
        int lowerNode = network.nodeOf(switchOfNode.get(leafNodeOfKey.get(k)));
        tor.registerWrite("MyIngress.node_load", upperNode, BigInteger.ZERO);
        tor.registerWrite("MyIngress.node_load", lowerNode, BigInteger.valueOf(l.equals(UPPER) ? 1 : 0));
        clients.get(c).get(keyBytes.get(k), res -> lastResult.put(c, res));
        List<Delivery> out = sendFrom(hostOfClient.get(c), clientFrame(c, r, action), action);
        if (hit) {
            expectAt(out, hostOfClient.get(c), action + ": the " + l + " copy must answer the client");
            DcExt ext = DcExt.of(decode(out.get(0).frame()).message());
            if (ext == null || ext.layer() != layerOf(l)) {
                throw new ReplayException(action + ": the reply came from layer " + (ext == null ? "?" : ext.layer())
                        + ", the spec's read went to the " + l + " copy");
            }
            arrive(out, action);
            KvResult res = lastResult.get(c);
            Map<String, Object> rec = asRecord(step.param("rec"));
            if (res == null || !res.fromSwitch() || writeIdOf(res.value()) != asLong(rec.get("v")) || res.seq() != asLong(rec.get("n"))) {
                throw new ReplayException(action + ": the client got " + describe(res) + ", the spec's copy holds " + rec);
            }
        } else {
            expectAt(out, serverOfKey.get(k), action + ": the read must miss at the " + l + " copy and go on to the server");
            DcExt ext = DcExt.of(decode(out.get(0).frame()).message());
            if (ext == null || ext.layer() != layerOf(l) || ext.node() != 0) {
                throw new ReplayException(action + ": the read reached the server routed to layer "
                        + (ext == null ? "?" : ext.layer() + " node " + ext.node()) + ", the spec's missed the " + l + " copy");
            }
            arrive(out, action);
        }
    }

    private String describe(KvResult r) {
        if (r == null) {
            return "no reply";
        }
        return r.outcome() + " value " + (r.value() == null ? "-" : writeIdOf(r.value())) + " version " + r.seq()
                + (r.fromSwitch() ? " from a switch" : "");
    }


    /** The put is handed to the server: phase 1 begins (the next version, an INV per layer). */
    private void serverWrite(SpecStep step) {
        String k = name(step.param("k"));
        int s = deliverToServer(step, message("put", "c", step.param("c"), "k", step.param("k"), "id", step.param("w")),
                false);
        DistCacheServer.PhaseOne p = servers.get(s).phaseOne(keyBytes.get(k)).orElseThrow(
                () -> new ReplayException("ServerWrite: server " + s + " did not start phase 1 for " + k));
        writeOfVersion.get(k).put(p.record().seq(), writeIdOf(p.record().value()));
        fromServer(s, serverContexts.get(s).takeSent(), "ServerWrite");
    }

    /** The spec message {@code m} waiting at its key's server is handed to that server; returns the server's host. */
    private int deliverToServer(SpecStep step, Map<String, Object> m, boolean duplicate) {
        ReplayNetwork.Flight<Route> f = net.take(step.actionName(), Route.AT_SERVER, m, duplicate);
        int s = serverOfKey.get(name(m.get("k")));
        servers.get(s).onPacket(f.frame());
        return s;
    }

    /** The acknowledgement is handed to the server; after the last one it applies, acknowledges the client, updates both copies. */
    private void serverInvAck(SpecStep step) {
        int s = deliverToServer(step, message("invA", "k", step.param("k"), "l", step.param("l"), "n", step.param("n")),
                dup(step));
        fromServer(s, serverContexts.get(s).takeSent(), "ServerInvAck");
    }

    /**
     * The server's resend timer of k fires. The server resends the invalidation of every layer that has
     * not acknowledged; the spec resends one layer per step, and only when neither its invalidation nor
     * its acknowledgement is in flight. The invalidation of layer l goes out; one of another layer is kept
     * if the spec has that same message in flight (the network is a set), and otherwise dropped as lost
     * (the network may lose any frame, and the spec resends that layer in a step of its own).
     */
    private void serverResendInv(SpecStep step) {
        String k = name(step.param("k"));
        String l = (String) step.param("l");
        int s = serverOfKey.get(k);
        DistCacheServer.PhaseOne p = servers.get(s).phaseOne(keyBytes.get(k)).orElseThrow(
                () -> new ReplayException("ServerResendInv: server " + s + " has no write of " + k + " in phase 1"));
        ReplayContext ctx = serverContexts.get(s);
        if (!ctx.fire(p.resendTimer())) {
            throw new ReplayException("ServerResendInv: the resend timer of " + k + " is not pending");
        }
        servers.get(s).onTimer(p.resendTimer());
        boolean resent = false;
        for (byte[] f : ctx.takeSent()) {
            if (decode(f).message().op() != DcOp.INV) {
                throw new ReplayException("ServerResendInv: the server sent " + opName(f) + " on its resend timer");
            }
            Map<String, Object> msg = specMessageOf(f);
            if (msg.get("l").equals(l)) {
                resent = true;
                net.put(msg, Route.FROM_SERVER, f);
            } else if (net.messages().contains(msg)) {
                net.put(msg, Route.FROM_SERVER, f);
            }
            // else: dropped, as lost (the spec resends that layer in a step of its own)
        }
        if (!resent) {
            throw new ReplayException("ServerResendInv: the server did not resend the " + l + " invalidation of " + k);
        }
    }

    /** A missed read is handed to the server, whose reply reaches the client in this step. */
    private void serverGet(SpecStep step) {
        String c = name(step.param("c"));
        KvResult previous = lastResult.get(c);
        int s = deliverToServer(step, message("get", "c", step.param("c"), "k", step.param("k"), "id", step.param("r")),
                dup(step));
        List<byte[]> sent = serverContexts.get(s).takeSent();
        if (sent.size() != 1 || decode(sent.get(0)).message().op() != KvOp.GET_REPLY) {
            throw new ReplayException("ServerGet: the server sent " + sent.size() + " frames, the spec one GET_REPLY");
        }
        fromServer(s, sent, "ServerGet");
        KvResult now = lastResult.get(c);
        if (now != null && now != previous) {
            Map<String, Object> rec = asRecord(step.param("rec"));
            if (now.fromSwitch() || writeIdOf(now.value()) != asLong(rec.get("v")) || now.seq() != asLong(rec.get("n"))) {
                throw new ReplayException("ServerGet: the client got " + describe(now) + ", the spec's server holds " + rec);
            }
        }
    }

    /** The insertion's request is handed to the server, which answers with a fill (an UPD with the token). */
    private void serverFetch(SpecStep step) {
        int s = deliverToServer(step, message("fetch", "k", step.param("k"), "l", step.param("l"), "tok",
                step.param("tok")), dup(step));
        fromServer(s, serverContexts.get(s).takeSent(), "ServerFetch");
    }

    /** The invalidation crosses the server's leaf (DC-5) to its copy (DC-6), whose INV_ACK must come back to the server. */
    private void cacheInv(SpecStep step) {
        String k = name(step.param("k"));
        long n = asLong(step.param("n"));
        Map<String, Object> fields = message("inv", "k", step.param("k"), "l", step.param("l"));
        ReplayNetwork.Flight<Route> f = net.take("CacheInv", Route.FROM_SERVER, matching(fields, "rec.n", n,
                m -> asLong(asRecord(m.get("rec")).get("n")) == n), dup(step));
        int s = serverOfKey.get(k);
        List<Delivery> out = sendFrom(s, f.frame(), "CacheInv");
        expectAt(out, s, "CacheInv: the copy's INV_ACK must come back to the server");
        if (decode(out.get(0).frame()).message().op() != DcOp.INV_ACK) {
            throw new ReplayException("CacheInv: the server got " + opName(out.get(0).frame()) + ", not INV_ACK");
        }
        arrive(out, "CacheInv");
    }

    /**
     * The update crosses the server's leaf (DC-7) to its copy (DC-8), which takes or refuses it and
     * consumes it either way; the switches' update_outcome counters must count it as the spec's label says.
     */
    private void cacheUpdate(SpecStep step) {
        String k = name(step.param("k"));
        Map<String, Object> m = message("upd", "k", step.param("k"), "l", step.param("l"), "rec",
                asRecord(step.param("rec")), "tok", step.param("tok"));
        ReplayNetwork.Flight<Route> f = net.take(step.actionName(), Route.FROM_SERVER, m, dup(step));
        long[] before = outcomes();
        List<Delivery> out = sendFrom(serverOfKey.get(k), f.frame(), step.actionName());
        if (!out.isEmpty()) {
            throw new ReplayException(step.actionName() + ": the update must end at its copy; it reached host " + out.get(0).host());
        }
        long[] after = outcomes();
        boolean taken = Boolean.TRUE.equals(step.param("taken"));
        if (after[0] - before[0] != (taken ? 1 : 0) || after[1] - before[1] != (taken ? 0 : 1)) {
            throw new ReplayException(step.actionName() + ": the switches counted " + (after[0] - before[0]) + " taken and "
                    + (after[1] - before[1]) + " refused; the spec's copy " + (taken ? "takes" : "refuses") + " it");
        }
    }

    /** Updates taken and refused, summed over every switch (DC-7, DC-8 count them). */
    private long[] outcomes() {
        long[] sum = new long[2];
        for (ReplayTarget t : switches.values()) {
            sum[0] += t.control().registerRead(UPDATE_OUTCOME, 0).longValue();
            sum[1] += t.control().registerRead(UPDATE_OUTCOME, 1).longValue();
        }
        return sum;
    }

    /**
     * The spec abstracts hotness: any uncached key of a switch's partition may be inserted. The replay
     * hands the controller the HOT report the copy's switch would clone (its node and layer); the agent
     * inserts the key invalid with a fresh token and sends FETCH, which must reach the key's server.
     */
    private void cacheInsert(SpecStep step) {
        String k = name(step.param("k"));
        String l = (String) step.param("l");
        String sw = switchOf(l, k);
        byte[] key = keyBytes.get(k);
        InnetMessage hot = DcExt.message(DcOp.HOT, 0, 0, 0, key, 0, DcExt.target(layerOf(l), network.nodeOf(sw), 0),
                new byte[0]);
        int reporter = hostOfClient.values().iterator().next();
        UdpFrame frame = new UdpFrame(RackAddressing.hostMac(CONTROLLER), RackAddressing.hostMac(reporter),
                RackAddressing.hostIp(reporter), RackAddressing.hostIp(CONTROLLER), DcOp.PORT, DcOp.PORT, hot.encode());
        controller.onPacket(frame.encode());
        carryTheAgentsFetch("CacheInsert", "insertion", k, l);
    }

    /**
     * The agent's one FETCH for k's copy at l (an insertion's or a re-fill's), carried through the switches: it
     * must reach the key's server.
     */
    private void carryTheAgentsFetch(String action, String what, String k, String l) {
        List<byte[]> sent = controllerContext.takeSent();
        if (sent.size() != 1 || decode(sent.get(0)).message().op() != DcOp.FETCH) {
            throw new ReplayException(action + ": the agent sent " + sent.size() + " frames for the " + what + " of " + k
                    + " at the " + l + " copy, the spec one FETCH");
        }
        List<Delivery> out = sendFrom(CONTROLLER, sent.get(0), action);
        expectAt(out, serverOfKey.get(k), action + ": the FETCH must reach the key's server");
        arrive(out, action);
    }

    /** The agent re-fills exactly k's copy at l now (the spec's choice; the controller's own waits for it to stay invalid). */
    private void cacheRefetch(SpecStep step) {
        String k = name(step.param("k"));
        String l = (String) step.param("l");
        try {
            controller.refetchKey(network.nodeOf(switchOf(l, k)), keyBytes.get(k));
        } catch (IllegalArgumentException e) {
            throw new ReplayException("CacheRefetch: " + e.getMessage());
        }
        carryTheAgentsFetch("CacheRefetch", "re-fill", k, l);
    }

    /** The agent evicts exactly k (the spec's choice; the controller's own policy picks the least read key). */
    private void cacheEvict(SpecStep step) {
        String k = name(step.param("k"));
        String l = (String) step.param("l");
        try {
            controller.evictKey(network.nodeOf(switchOf(l, k)), keyBytes.get(k));
        } catch (IllegalArgumentException e) {
            throw new ReplayException("CacheEvict: " + e.getMessage());
        }
        requireControllerSilent("CacheEvict");
    }

    /**
     * The spec's node s of layer l crashes and restarts empty: its target loses every table and register,
     * the handle is attached to the new switch (a new generation) and the controller's poll programs it.
     * Frames on the wires survive (they wait at hosts' ports here). First, the spec's own state must
     * show the placement this replay assumes: every key it resets is on s, and no key on s kept a copy.
     */
    private void cacheCrash(SpecStep before, SpecStep step) {
        String l = (String) step.param("l");
        String s = name(step.param("s"));
        for (String k : keyBytes.keySet()) {
            boolean onS = nodeOf(l, k).equals(s);
            boolean changed = false;
            boolean initial = true;
            for (String var : List.of("cached", "valid", "crec", "seen", "tok")) {
                Object b = at(before, var, l, k);
                Object a = at(step, var, l, k);
                changed |= !b.equals(a);
                initial &= isInitial(var, a);
            }
            if ((changed && !onS) || (onS && !initial)) {
                throw new NotReplayable("CacheCrash of " + l + " node " + s + ": the model's Place differs from the "
                        + "models' convention this replay assumes (spine: n1; leaf: k1 on n2, other keys on n3)");
            }
        }
        String sw = switchOf(s);
        ReplayTarget t = switches.get(sw);
        SwitchHandle h = handles.get(sw);
        h.detach();
        t.crash();
        h.attach(t.control());
        controller.pollNow();
        requireControllerSilent("CacheCrash");
        if (t.control().registerRead("MyIngress.dc_node", 0).intValue() != network.nodeOf(sw)) {
            throw new ReplayException("CacheCrash: the controller did not program the restarted " + sw);
        }
    }

    private static Object at(SpecStep state, String var, String layer, String key) {
        Object byLayer = asRecord(state.var(var)).get(layer);
        return ((TlaFunction) byLayer).apply(new ModelValue(key));
    }

    private static boolean isInitial(String var, Object v) {
        return switch (var) {
            case "cached", "valid" -> Boolean.FALSE.equals(v);
            case "crec" -> asLong(asRecord(v).get("v")) == 0 && asLong(asRecord(v).get("n")) == 0;
            default -> asLong(v) == 0;
        };
    }

    // ------------------------------------------------------------------ placement

    private String nodeOf(String layer, String key) {
        return layer.equals(UPPER) ? "n1" : leafNodeOfKey.get(key);
    }

    private String switchOf(String layer, String key) {
        return switchOf(nodeOf(layer, key));
    }

    private String switchOf(String specNode) {
        String sw = switchOfNode.get(specNode);
        if (sw == null) {
            throw new NotReplayable("spec node " + specNode + " holds no key of this trace in the replay's placement");
        }
        return sw;
    }

    private static int layerOf(String l) {
        return l.equals(UPPER) ? DcOp.LAYER_UPPER : DcOp.LAYER_LOWER;
    }

    private static String layerName(int layer) {
        return switch (layer) {
            case DcOp.LAYER_UPPER -> UPPER;
            case DcOp.LAYER_LOWER -> LOWER;
            default -> throw new ReplayException("a coherence message names layer " + layer + ", which the spec does not have");
        };
    }

    // ------------------------------------------------------------------ frames and spec messages

    private static Map<String, Object> message(String type, Object... fields) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t", type);
        for (int i = 0; i < fields.length; i += 2) {
            m.put((String) fields[i], fields[i + 1]);
        }
        return m;
    }

    private static Predicate<Map<String, Object>> matching(Map<String, Object> fields, String extraName, Object extraValue,
            Predicate<Map<String, Object>> extra) {
        return new Predicate<>() {
            @Override
            public boolean test(Map<String, Object> m) {
                return ReplayNetwork.matches(m, fields) && extra.test(m);
            }

            @Override
            public String toString() {
                return fields + " with " + extraName + " = " + extraValue;
            }
        };
    }

    /** The spec message a frame in flight is: put, get, inv, invA, upd or fetch. */
    private Map<String, Object> specMessageOf(byte[] frame) {
        InnetPacket p = decode(frame);
        InnetMessage msg = p.message();
        DcExt ext = DcExt.of(msg);
        if (ext == null) {
            throw new ReplayException("a frame in flight has no DistCache extension: " + opName(frame));
        }
        ModelValue k = new ModelValue(keyOfHex.getOrDefault(hex(msg.key()), "?" + hex(msg.key())));
        return switch (msg.op()) {
            case KvOp.PUT, KvOp.GET -> {
                int host = RackAddressing.hostOfIp(p.frame().srcIp());
                String c = clientOfHost.get(host);
                Long id = opOfRequest.getOrDefault(host, Map.of()).get(msg.reqId());
                if (c == null || id == null) {
                    throw new ReplayException("request id " + msg.reqId() + " of host " + host + " belongs to no replayed operation");
                }
                yield message(msg.op() == KvOp.PUT ? "put" : "get", "c", new ModelValue(c), "k", k, "id", id);
            }
            case DcOp.INV -> message("inv", "k", k, "l", layerName(ext.layer()), "rec",
                    rec(writeOfVersion(k.name(), msg.seq()), msg.seq()));
            case DcOp.INV_ACK -> message("invA", "k", k, "l", layerName(ext.layer()), "n", msg.seq());
            case DcOp.UPD -> message("upd", "k", k, "l", layerName(ext.layer()), "rec", recOf(StoredRecord.carriedBy(msg)),
                    "tok", ext.token());
            case DcOp.FETCH -> message("fetch", "k", k, "l", layerName(ext.layer()), "tok", ext.token());
            default -> throw new ReplayException("the implementation sent " + opName(frame)
                    + ", which has no counterpart among the spec's messages");
        };
    }

    private long writeOfVersion(String k, long version) {
        Long w = writeOfVersion.getOrDefault(k, Map.of()).get(version);
        if (w == null) {
            throw new ReplayException("version " + version + " of " + k + " was given to no write the server took");
        }
        return w;
    }

    private static long writeIdOf(byte[] value) {
        try {
            return WriteIds.writeIdOf(value);
        } catch (IllegalStateException e) {
            throw new ReplayException(e.getMessage());
        }
    }

    /** A record as the spec writes it, {@code [v |-> write id, n |-> version]}; a tombstone has no write id. */
    private static Map<String, Object> recOf(StoredRecord r) {
        return rec(r.deleted() ? -1L : writeIdOf(r.value()), r.seq());
    }

    private static Map<String, Object> rec(long writeId, long version) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("v", writeId);
        m.put("n", version);
        return m;
    }

    // ------------------------------------------------------------------ the refinement mapping

    /**
     * The implementation's state as spec values: each copy from its switch (the key-table entry and the
     * record registers, read through the control API), each key's server (stored record, write in phase
     * 1), the clients' outstanding operations and the frames in flight.
     */
    @Override
    public Map<String, Object> observe() {
        Map<String, Object> cached = new LinkedHashMap<>();
        Map<String, Object> valid = new LinkedHashMap<>();
        Map<String, Object> crec = new LinkedHashMap<>();
        Map<String, Object> seen = new LinkedHashMap<>();
        Map<String, Object> tok = new LinkedHashMap<>();
        for (String l : List.of(UPPER, LOWER)) {
            Map<Object, Object> cl = new LinkedHashMap<>();
            Map<Object, Object> vl = new LinkedHashMap<>();
            Map<Object, Object> rl = new LinkedHashMap<>();
            Map<Object, Object> sl = new LinkedHashMap<>();
            Map<Object, Object> tl = new LinkedHashMap<>();
            for (var e : keyBytes.entrySet()) {
                ModelValue k = new ModelValue(e.getKey());
                SwitchControl c = switches.get(switchOf(l, e.getKey())).control();
                int index = CacheRegisters.indexOf(c, e.getValue());
                boolean isCached = index >= 0;
                boolean isValid = isCached && c.registerRead("MyIngress.record_valid", index).signum() != 0;
                cl.put(k, isCached);
                vl.put(k, isValid);
                rl.put(k, isValid ? copyRecord(c, index) : NOT_SHOWN);
                sl.put(k, isCached ? c.registerRead("MyIngress.record_seen", index).longValue() : NOT_SHOWN);
                tl.put(k, isCached ? c.registerRead("MyIngress.record_token", index).longValue() : NOT_SHOWN);
            }
            cached.put(l, new TlaFunction(cl));
            valid.put(l, new TlaFunction(vl));
            crec.put(l, new TlaFunction(rl));
            seen.put(l, new TlaFunction(sl));
            tok.put(l, new TlaFunction(tl));
        }
        Map<Object, Object> store = new LinkedHashMap<>();
        Map<Object, Object> cur = new LinkedHashMap<>();
        Map<Object, Object> acked = new LinkedHashMap<>();
        for (var e : keyBytes.entrySet()) {
            ModelValue k = new ModelValue(e.getKey());
            DistCacheServer server = servers.get(serverOfKey.get(e.getKey()));
            store.put(k, server.storedRecord(e.getValue()).map(DistCacheReplay::recOf).orElse(Map.of("missing", true)));
            var phaseOne = server.phaseOne(e.getValue());
            Map<String, Object> now = new LinkedHashMap<>();
            Set<Object> layers = new LinkedHashSet<>();
            if (phaseOne.isPresent()) {
                String c = clientOfHost.get(RackAddressing.hostOfIp(phaseOne.get().clientIp()));
                now.put("c", c == null ? "host " + RackAddressing.hostOfIp(phaseOne.get().clientIp()) : new ModelValue(c));
                now.put("w", writeIdOf(phaseOne.get().record().value()));
                now.put("n", phaseOne.get().record().seq());
                for (int layer : phaseOne.get().ackedLayers()) {
                    layers.add(layerName(layer));
                }
            } else {
                now.put("c", "none");
                now.put("w", 0L);
                now.put("n", 0L);
            }
            cur.put(k, now);
            acked.put(k, layers);
        }
        Map<Object, Object> busy = new LinkedHashMap<>();
        for (String client : hostOfClient.keySet()) {
            busy.put(new ModelValue(client), clients.get(client).busy());
        }
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("cached", cached);
        state.put("valid", valid);
        state.put("crec", crec);
        state.put("seen", seen);
        state.put("tok", tok);
        state.put("store", new TlaFunction(store));
        state.put("cur", new TlaFunction(cur));
        state.put("acked", new TlaFunction(acked));
        state.put("pend", new TlaFunction(busy));
        state.put("net", net.messages());
        return state;
    }

    /** A valid copy's record: value words and length, version, and the tombstone flag. */
    private static Map<String, Object> copyRecord(SwitchControl c, int index) {
        boolean deleted = c.registerRead("MyIngress.record_deleted", index).signum() != 0;
        long version = c.registerRead("MyIngress.record_version", index).longValue();
        return recOf(deleted ? StoredRecord.tombstone(version) : StoredRecord.value(CacheRegisters.readValue(c, index), version));
    }

    /**
     * What the implementation can show of the spec's variables: {@code pend} only as whether each client
     * has an operation outstanding (the read floors are history); a copy's {@code seen} and {@code tok}
     * only while it is cached (an evicted copy has no registers: its slot is free, and a new insertion
     * sets both), and its {@code crec} only while it is valid (the spec's crec is meaningful only then).
     */
    @Override
    public Object projectSpec(String var, SpecStep state) {
        Object specValue = state.var(var);
        return switch (var) {
            case "pend" -> {
                Map<Object, Object> out = new LinkedHashMap<>();
                for (var e : ((TlaFunction) specValue).mapping().entrySet()) {
                    out.put(e.getKey(), !"none".equals(asRecord(e.getValue()).get("t")));
                }
                yield new TlaFunction(out);
            }
            case "crec", "seen", "tok" -> {
                String guard = var.equals("crec") ? "valid" : "cached";
                Map<String, Object> out = new LinkedHashMap<>();
                for (var byLayer : asRecord(specValue).entrySet()) {
                    TlaFunction shownIf = (TlaFunction) asRecord(state.var(guard)).get(byLayer.getKey());
                    Map<Object, Object> layer = new LinkedHashMap<>();
                    for (var e : ((TlaFunction) byLayer.getValue()).mapping().entrySet()) {
                        layer.put(e.getKey(), Boolean.TRUE.equals(shownIf.apply(e.getKey())) ? e.getValue() : NOT_SHOWN);
                    }
                    out.put(byLayer.getKey(), new TlaFunction(layer));
                }
                yield out;
            }
            default -> specValue;
        };
    }
}
