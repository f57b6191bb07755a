package dev.innet.netcache.spec;

import static dev.innet.kv.spec.ReplayFrames.decode;
import static dev.innet.kv.spec.ReplayFrames.expectOnly;

import static dev.innet.protocol.spec.TlaValues.asLong;
import static dev.innet.protocol.spec.TlaValues.asRecord;
import static dev.innet.protocol.spec.TlaValues.name;

import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.cache.CacheControlNames;
import dev.innet.kv.cache.CacheControllerConfig;
import dev.innet.kv.cache.CacheRegisters;
import dev.innet.kv.cache.ControlProcedure;
import dev.innet.kv.cache.SequenceBase;
import dev.innet.kv.client.ClientConfig;
import dev.innet.kv.client.KvClient;
import dev.innet.kv.server.ServerConfig;
import dev.innet.kv.server.StorageServer;
import dev.innet.kv.spec.ReplayClients;
import dev.innet.kv.spec.WriteIds;
import dev.innet.kv.store.MemoryRecordStore;
import dev.innet.kv.store.RecordStore;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.kv.store.StoredRecord;
import dev.innet.netcache.Admit;
import dev.innet.netcache.NetCacheController;
import dev.innet.protocol.KvResult;
import dev.innet.protocol.RackPorts;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * NetCache.tla replayed on the implementation: p4/netcache.p4 on the replay target, one
 * {@link StorageServer}, a {@link KvClient} per spec client, and {@link NetCacheController} driven
 * through its own loop (a hot report, then control steps until it is idle) or, for the spec's
 * {@code Evict(k)}, through its eviction procedure of exactly k. Every frame between them is routed by
 * this class, so the spec's choice of which message is delivered, lost or duplicated next is followed
 * exactly (docs/conformance.md, "NetCache"). The admission's probe of the key's server (NetCache.tla's
 * FillBySeen) is replayed too: its SEQ_PROBE and reply are the spec's probe and probeR, numbered by the
 * admission, and the switch's record_seen_seq and record_fill_floor are compared with seen and fillFloor.
 *
 * <p>The refinement mapping ({@link #observe}) reads the switch through the control API (key table,
 * record registers, sequence counters), the server's store, the clients' outstanding operations, the
 * frames in flight, and what the clients were told (acknowledged writes, the last read's value).
 * Sequence numbers of the g-th switch incarnation start at {@link SequenceBase#of}(g); the spec's
 * restarted counters start at {@code nW + nCrash} (RestartSeqBase: one above SeqCeiling, every seq
 * assigned before), so a number {@code base(g) + i} of incarnation g is the spec's
 * {@code writesBefore(g) + (g - 1) + i}. Both numberings put every seq of a later incarnation above
 * every earlier one, so NC-7's and NC-8's comparisons come out the same on both sides.
 */
public final class NetCacheReplay implements SpecReplay {
    private static final int SERVER = 1;
    private static final int FIRST_CLIENT = 2;
    private static final int CONTROLLER = RackPorts.CONTROLLER_HOST;
    /** High enough that the switch flags no request hot: admissions are the spec's Admit only. */
    private static final int NEVER_HOT = 1_000_000_000;
    /** Control steps an admission may take before the replay calls the controller stuck. */
    private static final int MAX_CONTROL_STEPS = 16;
    /** A cached record's register content the spec leaves unspecified (invalid, nothing staged). */
    private static final String UNCACHED = "not cached";
    /** A cached record's fill floor before its probe returned (the spec's FloorUnknown, the switch's FLOOR_UNKNOWN). */
    private static final String FLOOR_UNKNOWN = "unknown";

    /** Where a frame in flight is going. */
    private enum Route {
        /** Through the switch to the server (a forwarded request). */
        TO_SERVER,
        /** A server's reply, not yet through the switch (the switch acts on it in the step that delivers it). */
        SERVER_TO_SWITCH,
        /**
         * A server's SEQ_PROBE_REPLY, already through the switch (control traffic, which the switch only
         * forwards), on its way to the controller.
         */
        TO_CONTROLLER
    }

    /** Builds the storage server the replay runs (tests substitute one with a seeded bug). */
    @FunctionalInterface
    public interface ServerFactory {
        StorageServer create(ServerConfig config, RecordStoreOpener stores);
    }

    /** The first sequence number of an incarnation, in the implementation and in the spec. */
    private record Incarnation(long implBase, long specBase) {}

    /** A client's outstanding operation, as the replay issued it. */
    private record Op(boolean write, String key, long id, long floor) {}

    /**
     * NetCache's controller with its eviction opened to the replay: the spec names the victim, where
     * the loop samples popularity counters. Public and not final so that tests can seed a controller bug.
     */
    public static class ReplayController extends NetCacheController {
        public ReplayController(CacheControllerConfig config, SwitchHandle handle) {
            super(config, handle);
        }

        ControlProcedure evict(int index, byte[] key) {
            return eviction(index, key);
        }

        /** The admission the loop is running now, or null. */
        Admit currentAdmission() {
            return currentTask() instanceof Admit admit ? admit : null;
        }

        long probeRetryTimerId() {
            return probeRetryTimer();
        }
    }

    /** Builds the controller the replay runs (tests substitute one with a seeded bug). */
    @FunctionalInterface
    public interface ControllerFactory {
        ReplayController create(CacheControllerConfig config, SwitchHandle handle);
    }

    private final ReplayTarget target;
    private final ServerFactory servers;
    private final ControllerFactory controllers;
    private final SwitchHandle handle = new SwitchHandle();
    private final Map<String, byte[]> keyBytes = new TreeMap<>();
    private final Map<String, String> keyOfHex = new HashMap<>();
    private final Map<String, Integer> hostOfClient = new TreeMap<>();
    private final Map<Integer, String> clientOfHost = new HashMap<>();
    private final Map<String, ReplayContext> clientContexts = new HashMap<>();
    private final Map<String, KvClient> clients = new HashMap<>();
    /** Per client host: request id -> the spec's write or read id of that operation. */
    private final Map<Integer, Map<Long, Long>> opOfRequest = new HashMap<>();
    /** The controller's probe request ids -> the spec's admission number of the probe (its field a). */
    private final Map<Long, Long> admissionOfProbe = new HashMap<>();
    private final Map<String, Op> outstanding = new HashMap<>();
    private final ReplayNetwork<Route> net = new ReplayNetwork<>();
    private final List<Incarnation> incarnations = new ArrayList<>();
    /** Per key, the largest write id a client was told is done (the spec's doneMax, from the clients' results). */
    private final Map<String, Long> acknowledged = new TreeMap<>();
    /** The last completed read: the newest acknowledged write when it began, and the value it returned. */
    private Map<String, Object> lastRead = readRecord(0, 0);
    private long writesIssued;
    private ReplayContext serverContext;
    private ReplayContext controllerContext;
    private StorageServer server;
    private ReplayController controller;

    public NetCacheReplay(ReplayTarget target) {
        this(target, StorageServer::new);
    }

    /** @param servers the storage server to replay (tests pass one with a seeded bug) */
    public NetCacheReplay(ReplayTarget target, ServerFactory servers) {
        this(target, servers, ReplayController::new);
    }

    /**
     * @param servers the storage server to replay (tests pass one with a seeded bug)
     * @param controllers the controller to replay (tests pass one with a seeded bug)
     */
    public NetCacheReplay(ReplayTarget target, ServerFactory servers, ControllerFactory controllers) {
        this.target = target;
        this.servers = servers;
        this.controllers = controllers;
    }

    // ------------------------------------------------------------------ set-up

    /**
     * Clients are hosts 2, 3, ... in name order, the one server host 1 (the spec's servers differ only
     * in which keys they own, which no spec variable shows), the controller the CPU port. Every key
     * starts at the server with the spec's initial record, value 0 with seq 0 (loaded into its store
     * before it starts, as a benchmark's load phase would); the switch is brought up by the
     * controller's own loop.
     */
    @Override
    public void init(SpecStep initial) {
        List<String> keys = TlaValues.domainNames(initial.var("cached"));
        Map<Integer, String> slots = new HashMap<>();
        RecordStore store = new MemoryRecordStore();
        for (String k : keys) {
            byte[] key = InnetMessage.key(k);
            String clash = slots.put(SequenceBase.slotOf(key), k);
            if (clash != null) {
                throw new NotReplayable("keys " + clash + " and " + k + " share a sequence-number slot of the switch");
            }
            keyBytes.put(k, key);
            keyOfHex.put(hex(key), k);
            acknowledged.put(k, 0L);
            store.apply(key, StoredRecord.value(WriteIds.valueOf(0), 0), RecordStore.Ordering.ARRIVAL);
        }
        int host = FIRST_CLIENT;
        for (String c : TlaValues.domainNames(initial.var("pend"))) {
            hostOfClient.put(c, host);
            clientOfHost.put(host, c);
            host++;
        }
        List<Integer> hosts = new ArrayList<>(List.of(SERVER));
        hosts.addAll(hostOfClient.values());
        hosts.add(CONTROLLER);
        // capacity = every key: the spec's CacheSize guards Admit, the controller never has to make room
        CacheControllerConfig config = new CacheControllerConfig(hosts, List.of(SERVER),
                List.copyOf(hostOfClient.values()), keys.size(), 20_000, 200_000, 1_000_000_000, 8, 64, NEVER_HOT,
                List.of(), CacheControllerConfig.MIN_CLIENT_SILENCE_REPORT_NANOS);
        controllerContext = new ReplayContext(CONTROLLER, 1);
        controller = controllers.create(config, handle);
        controller.onStart(controllerContext);
        bringUpSwitch();
        serverContext = new ReplayContext(SERVER, 2);
        server = servers.create(new ServerConfig(List.of(SERVER), CONTROLLER, InnetMessage.MAX_VALUE_BYTES, 64,
                1_000_000_000_000L), dir -> store);
        server.onStart(serverContext);
        for (var c : hostOfClient.entrySet()) {
            ReplayContext ctx = new ReplayContext(c.getValue(), 3);
            clientContexts.put(c.getKey(), ctx);
            // one attempt: the spec's client gives up after a timeout instead of resending (ClientGiveUp)
            clients.put(c.getKey(), new KvClient(ctx, new ClientConfig(List.of(SERVER), 1_000_000, 1, false, 40000), null));
        }
    }

    /**
     * A (new) switch is attached; the controller's loop notices the new generation, counts the bring-up
     * and programs it (forwarding, and from the second incarnation on, the sequence base).
     */
    private void bringUpSwitch() {
        handle.attach(target.control());
        long before = controller.bringUps();
        crankController();
        if (controller.bringUps() != before + 1) {
            throw new ReplayException("the controller did not bring up the new switch");
        }
        // the spec's counters after its SwitchRestart: nW + nCrash (0 for the first incarnation)
        long restartsBefore = incarnations.size();
        incarnations.add(new Incarnation(SequenceBase.of(controller.bringUps()), writesIssued + restartsBefore));
    }

    /**
     * One round of the controller's pending timers (its control-step tick and its counter reset). The
     * probe's retry timer is left pending: a resent probe is the spec's ProbeResend, a step of its own.
     */
    private void crankController() {
        for (long timer : controllerContext.pendingTimers()) {
            if (timer != controller.probeRetryTimerId() && controllerContext.fire(timer)) {
                controller.onTimer(timer);
            }
        }
    }

    private static String hex(byte[] key) {
        return HexFormat.of().formatHex(key);
    }

    /** The spec's actions this replay does not perform, with the reasons (none: every action of Next is replayed). */
    static final Map<String, String> NOT_REPLAYABLE = Map.of();

    // ------------------------------------------------------------------ actions

    @Override
    public void perform(SpecStep before, SpecStep step) {
        String a = step.actionName();
        switch (a) {
            case "ClientWrite" -> clientWrite(step);
            case "ClientReadHit" -> clientRead(step, true);
            case "ClientReadForward" -> clientRead(step, false);
            case "ClientGiveUp" -> giveUp(name(step.param("c")));
            case "ServerPut" -> serverRequest(step, "put", "w");
            case "ServerGet" -> serverRequest(step, "get", "r");
            case "SwitchPutReply" -> switchReply(step, Map.of("t", "putR", "c", step.param("c"), "k", step.param("k"),
                    "id", step.param("w"), "s", step.param("s")), dup(step));
            case "SwitchGetReply" -> switchGetReply(step);
            case "ClientGetReply" -> switchReply(step, getR(step), false);
            case "Admit" -> admit(step);
            case "ServerProbe" -> serverProbe(step);
            case "AdmitFloor" -> admitFloor(step);
            case "DiscardProbeReply" -> discardProbeReply(step);
            case "ProbeResend" -> probeResend(step);
            case "Evict" -> evict(name(step.param("k")));
            case "SwitchRestart" -> restartSwitch();
            case "Lose" -> net.lose(asRecord(step.param("m")));
            default -> throw new NotReplayable(a + ": not an action of NetCache.tla");
        }
    }

    private static boolean dup(SpecStep step) {
        return Boolean.TRUE.equals(step.param("dup"));
    }

    /** NC-4 / NC-6: the switch numbers the write (and invalidates and stages a cached key) and forwards it. */
    private void clientWrite(SpecStep step) {
        String c = name(step.param("c"));
        String k = name(step.param("k"));
        long w = asLong(step.param("w"));
        start(c, new Op(true, k, w, 0));
        writesIssued++;
        clients.get(c).put(keyBytes.get(k), WriteIds.valueOf(w), r -> completed(c, r));
        List<ReplayTarget.Emitted> out = sendFromClient(c, w);
        expectOnly(out, SERVER, "ClientWrite: the switch must forward the write to the server");
        net.put(specMessageOf(out.get(0).frame()), Route.TO_SERVER, out.get(0).frame());
    }

    /** NC-1 (hit: the switch answers with the spec's value) or NC-2 / NC-3 (forwarded, GET_FOR_CACHE iff cached). */
    private void clientRead(SpecStep step, boolean hit) {
        String c = name(step.param("c"));
        String k = name(step.param("k"));
        long r = asLong(step.param("r"));
        start(c, new Op(false, k, r, acknowledged.get(k)));
        clients.get(c).get(keyBytes.get(k), res -> completed(c, res));
        List<ReplayTarget.Emitted> out = sendFromClient(c, r);
        if (hit) {
            expectOnly(out, hostOfClient.get(c), "ClientReadHit: the switch must answer the read itself");
            deliverToClient(c, out.get(0).frame());
            if (outstanding.containsKey(c)) {
                throw new ReplayException("ClientReadHit: the client did not take the switch's answer");
            }
        } else {
            expectOnly(out, SERVER, "ClientReadForward: the switch must forward the read to the server");
            net.put(specMessageOf(out.get(0).frame()), Route.TO_SERVER, out.get(0).frame());
        }
    }

    private void start(String c, Op op) {
        if (clients.get(c).busy()) {
            throw new ReplayException("client " + c + " still has an operation outstanding");
        }
        outstanding.put(c, op);
    }

    /** What the client library reported for its operation: the replay's record of replies received. */
    private void completed(String c, KvResult result) {
        Op op = outstanding.remove(c);
        boolean ok = result.outcome() == KvResult.Outcome.OK || result.outcome() == KvResult.Outcome.NOT_FOUND;
        if (op == null || !ok) {
            return; // gave up (ClientGiveUp checks that separately)
        }
        if (op.write()) {
            acknowledged.merge(op.key(), op.id(), Math::max);
        } else {
            lastRead = readRecord(op.floor(), WriteIds.writeIdOf(result.value()));
        }
    }

    private static Map<String, Object> readRecord(long floor, long got) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("floor", floor);
        r.put("got", got);
        return r;
    }

    /** Passes the client's newly sent request through the switch; remembers which spec operation it is. */
    private List<ReplayTarget.Emitted> sendFromClient(String c, long specOpId) {
        int host = hostOfClient.get(c);
        List<byte[]> sent = clientContexts.get(c).takeSent();
        if (sent.size() != 1) {
            throw new ReplayException("client " + c + " sent " + sent.size() + " frames for one operation");
        }
        opOfRequest.computeIfAbsent(host, h -> new HashMap<>()).put(decode(sent.get(0)).message().reqId(), specOpId);
        return target.inject(RackPorts.portOf(host), sent.get(0));
    }

    private void deliverToClient(String c, byte[] frame) {
        clients.get(c).onPacket(frame);
    }

    /** The client's timer fires; with one attempt it must give up, sending nothing. */
    private void giveUp(String c) {
        ReplayClients.giveUp(c, clientContexts.get(c), clients.get(c));
        outstanding.remove(c);
    }

    /** ServerPut / ServerGet: the request is handed to the server; its one reply waits before the switch. */
    private void serverRequest(SpecStep step, String type, String idParam) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t", type);
        m.put("c", step.param("c"));
        m.put("k", step.param("k"));
        m.put("id", step.param(idParam));
        if (type.equals("put")) {
            m.put("s", step.param("s"));
        }
        byte[] reply = serve(step, m);
        net.put(specMessageOf(reply), Route.SERVER_TO_SWITCH, reply);
    }

    /** The message {@code m} in flight is handed to the server; returns its one reply. */
    private byte[] serve(SpecStep step, Map<String, Object> m) {
        ReplayNetwork.Flight<Route> f = net.take(step.actionName(), Route.TO_SERVER, m, dup(step));
        server.onPacket(f.frame());
        List<byte[]> sent = serverContext.takeSent();
        if (sent.size() != 1) {
            throw new ReplayException(step.actionName() + ": the server sent " + sent.size()
                    + " frames, the spec one reply");
        }
        return sent.get(0);
    }

    /** The plain GET_REPLY the spec delivers (picked by the value it carries, as two may differ only there). */
    private static Predicate<Map<String, Object>> getR(SpecStep step) {
        Map<String, Object> fields = Map.of("t", "getR", "c", step.param("c"), "k", step.param("k"), "id", step.param("r"));
        return new Predicate<>() {
            @Override
            public boolean test(Map<String, Object> m) {
                return ReplayNetwork.matches(m, fields) && asRecord(m.get("rec")).get("v").equals(step.param("v"));
            }

            @Override
            public String toString() {
                return fields + " with value " + step.param("v");
            }
        };
    }

    private void switchReply(SpecStep step, Map<String, Object> pattern, boolean duplicate) {
        switchReply(step, m -> ReplayNetwork.matches(m, pattern), pattern.toString(), duplicate);
    }

    private void switchReply(SpecStep step, Predicate<Map<String, Object>> wanted, boolean duplicate) {
        switchReply(step, wanted, wanted.toString(), duplicate);
    }

    /**
     * NC-7 / NC-8 / NC-10: the server's reply passes the switch, which may commit or refill the record,
     * and reaches the client in the same step; the client completes its operation if it still waits for it.
     */
    private void switchReply(SpecStep step, Predicate<Map<String, Object>> wanted, String what, boolean duplicate) {
        ReplayNetwork.Flight<Route> f = net.take(step.actionName(), Route.SERVER_TO_SWITCH, new Predicate<>() {
            @Override
            public boolean test(Map<String, Object> m) {
                return wanted.test(m);
            }

            @Override
            public String toString() {
                return what;
            }
        }, duplicate);
        String c = name(step.param("c"));
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(SERVER), f.frame());
        expectOnly(out, hostOfClient.get(c), step.actionName() + ": the switch must relay the reply to the client");
        InnetMessage relayed = decode(out.get(0).frame()).message();
        if (relayed.op() == KvOp.GET_FOR_CACHE_REPLY) {
            throw new ReplayException(step.actionName() + ": the switch relayed GET_FOR_CACHE_REPLY; a client asked GET");
        }
        deliverToClient(c, out.get(0).frame());
    }

    /**
     * NC-8 / NC-9: the GET_FOR_CACHE_REPLY may refill the invalid record (checked through {@code valid}
     * and {@code rrec}). After a switch restart neither the spec nor the implementation refills from a
     * record numbered before it: both restart their counters above every earlier number.
     */
    private void switchGetReply(SpecStep step) {
        Map<String, Object> pattern = Map.of("t", "getRC", "c", step.param("c"), "k", step.param("k"), "id",
                step.param("r"), "rec", step.param("rec"));
        switchReply(step, pattern, dup(step));
    }

    /**
     * The spec abstracts hotness: any uncached key may be admitted. The replay sends the report the
     * server would send (its record of k) through the switch to the controller, whose loop then admits
     * k in its own control steps (Admit: registers, then the key-table entry, then the SEQ_PROBE of k's
     * server, which the switch passes on: the spec's probe of this admission, numbered probing'[k]).
     * The admission then waits for the probe's reply (AdmitFloor).
     */
    private void admit(SpecStep step) {
        String k = name(step.param("k"));
        byte[] key = keyBytes.get(k);
        StoredRecord r = server.storedRecord(key).orElse(null);
        int status = r == null || r.deleted() ? KvStatus.NOT_FOUND : KvStatus.OK;
        InnetMessage report = new InnetMessage(KvOp.HOT_REPORT, 0, status, 0, key, r == null ? 0 : r.seq(),
                new byte[0], r == null ? new byte[0] : r.value());
        UdpFrame frame = new UdpFrame(RackAddressing.hostMac(CONTROLLER), RackAddressing.hostMac(SERVER),
                RackAddressing.hostIp(SERVER), RackAddressing.hostIp(CONTROLLER), KvOp.CONTROL_PORT, KvOp.CONTROL_PORT,
                report.encode());
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(SERVER), frame.encode());
        expectOnly(out, CONTROLLER, "Admit: the switch must pass the hot report to the controller");
        controller.onPacket(out.get(0).frame());
        long a = probingOf(step, k);
        for (int i = 0; i < MAX_CONTROL_STEPS; i++) {
            crankController();
            List<byte[]> sent = controllerContext.takeSent();
            if (!sent.isEmpty()) {
                if (a == 0) {
                    throw new ReplayException("Admit: the controller sent " + sent.size()
                            + " frames; the spec's admission sends no probe");
                }
                sendProbe("Admit", sent, a);
                return;
            }
            if (controller.directory().contains(key) && controller.currentProcedure().equals("idle")) {
                if (a != 0) {
                    throw new ReplayException("Admit: the controller admitted " + k + " without probing its server");
                }
                return;
            }
        }
        throw new ReplayException("Admit: the controller did not admit " + k + " within " + MAX_CONTROL_STEPS
                + " control steps (now: " + controller.currentProcedure() + ")");
    }

    /** The spec's probing[k] in {@code step}: the admission whose probe the controller waits for, 0 if none. */
    private static long probingOf(SpecStep step, String k) {
        return asLong(((TlaFunction) step.var("probing")).apply(new ModelValue(k)));
    }

    /**
     * The controller's one SEQ_PROBE of admission {@code a} (sent now, or resent) through the switch (CPU port
     * in, server port out).
     */
    private void sendProbe(String action, List<byte[]> sent, long a) {
        if (sent.size() != 1 || decode(sent.get(0)).message().op() != KvOp.SEQ_PROBE) {
            throw new ReplayException(action + ": the controller sent " + sent.size() + " frames, the spec one SEQ_PROBE");
        }
        Long before = admissionOfProbe.putIfAbsent(decode(sent.get(0)).message().reqId(), a);
        if (before != null && before != a) {
            throw new ReplayException(action + ": the controller's probe for admission " + a
                    + " carries the request id of admission " + before + "'s");
        }
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.CPU_PORT, sent.get(0));
        expectOnly(out, SERVER, action + ": the switch must pass SEQ_PROBE to the server");
        net.put(specMessageOf(out.get(0).frame()), Route.TO_SERVER, out.get(0).frame());
    }

    /** The server answers the probe (StorageServer.seqProbe); its reply passes the switch towards the controller. */
    private void serverProbe(SpecStep step) {
        byte[] reply = serve(step, Map.of("t", "probe", "k", step.param("k"), "a", step.param("adm")));
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(SERVER), reply);
        expectOnly(out, CONTROLLER, "ServerProbe: the switch must pass SEQ_PROBE_REPLY to the controller");
        net.put(specMessageOf(out.get(0).frame()), Route.TO_CONTROLLER, out.get(0).frame());
    }

    /** The probe reply {@code step} names, taken from the network (a copy with {@code dup}). */
    private byte[] probeReply(SpecStep step, boolean duplicate) {
        Map<String, Object> m = Map.of("t", "probeR", "k", step.param("k"), "a", step.param("adm"), "s", step.param("s"));
        return net.take(step.actionName(), Route.TO_CONTROLLER, m, duplicate).frame();
    }

    /**
     * The probe's reply reaches the admission in progress, which writes it as the record's fill floor and
     * finishes in the loop's next control step. The floor itself is compared through {@code fillFloor}.
     */
    private void admitFloor(SpecStep step) {
        String k = name(step.param("k"));
        byte[] reply = probeReply(step, dup(step));
        Admit admit = controller.currentAdmission();
        if (admit == null || !admit.awaitingFloor() || !Arrays.equals(admit.key(), keyBytes.get(k))) {
            throw new ReplayException("AdmitFloor: no admission of " + k + " waits for its probe's reply (now: "
                    + controller.currentProcedure() + ")");
        }
        controller.onPacket(reply);
        if (admit.awaitingFloor()) {
            throw new ReplayException("AdmitFloor: the admission of " + k + " did not take its probe's reply");
        }
        for (int i = 0; i < MAX_CONTROL_STEPS && !controller.currentProcedure().equals("idle"); i++) {
            crankController();
        }
        if (!controller.currentProcedure().equals("idle") || !controllerContext.takeSent().isEmpty()) {
            throw new ReplayException("AdmitFloor: the admission of " + k + " did not finish quietly (now: "
                    + controller.currentProcedure() + ")");
        }
    }

    /** A probe reply no admission in progress waits for reaches the controller, which must ignore it. */
    private void discardProbeReply(SpecStep step) {
        String k = name(step.param("k"));
        byte[] reply = probeReply(step, false);
        Admit admit = controller.currentAdmission();
        boolean waiting = admit != null && admit.awaitingFloor();
        controller.onPacket(reply);
        if (waiting && !admit.awaitingFloor()) {
            throw new ReplayException("DiscardProbeReply: the admission in progress took a probe reply of " + k
                    + " for another admission as its own");
        }
        if (!controllerContext.takeSent().isEmpty()) {
            throw new ReplayException("DiscardProbeReply: the controller answered a stray probe reply");
        }
    }

    /**
     * The probe's retry timer fires (the probe or its reply was lost) and the admission in progress sends
     * the same SEQ_PROBE again.
     */
    private void probeResend(SpecStep step) {
        String k = name(step.param("k"));
        long timer = controller.probeRetryTimerId();
        if (!controllerContext.fire(timer)) {
            throw new ReplayException("ProbeResend: the controller has no probe retry pending for " + k);
        }
        controller.onTimer(timer);
        sendProbe("ProbeResend", controllerContext.takeSent(), probingOf(step, k));
    }

    /** Removal of exactly k (the spec's victim), run to completion: one control step. */
    private void evict(String k) {
        int index = indexOf(target.control(), keyBytes.get(k));
        if (index < 0) {
            throw new ReplayException("Evict: " + k + " is not in the switch's key table");
        }
        ControlProcedure eviction = controller.evict(index, keyBytes.get(k));
        for (int i = 0; !eviction.step(target.control()); i++) {
            if (i >= MAX_CONTROL_STEPS) {
                throw new ReplayException("Evict: the eviction of " + k + " did not finish");
            }
        }
    }

    /**
     * The switch loses every table and register and comes back empty; the frames on the wires stay (the
     * spec's choice; those inside the switch are Lose steps). The controller's loop sees the new
     * generation, counts the bring-up durably and programs the switch, sequence base included.
     */
    private void restartSwitch() {
        handle.detach();
        target.crash();
        bringUpSwitch();
    }

    // ------------------------------------------------------------------ frames and spec messages

    /**
     * The spec message a frame in flight is: put, putR, get (cons = GET_FOR_CACHE), getR, getRC, or the
     * admission's probe and probeR (its admission number from the controller's request id).
     */
    private Map<String, Object> specMessageOf(byte[] frame) {
        InnetPacket p = decode(frame);
        InnetMessage msg = p.message();
        if (msg.op() == KvOp.SEQ_PROBE || msg.op() == KvOp.SEQ_PROBE_REPLY) {
            return probeMessageOf(msg);
        }
        int clientHost = RackAddressing.hostOfIp(msg.isReply() ? p.frame().dstIp() : p.frame().srcIp());
        String client = clientOfHost.get(clientHost);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t", switch (msg.op()) {
            case KvOp.PUT_SEQ -> "put";
            case KvOp.PUT_REPLY -> "putR";
            case KvOp.GET, KvOp.GET_FOR_CACHE -> "get";
            case KvOp.GET_REPLY -> "getR";
            case KvOp.GET_FOR_CACHE_REPLY -> "getRC";
            default -> throw new ReplayException("the implementation sent " + KvOp.name(msg.op())
                    + ", which has no counterpart among the spec's messages");
        });
        m.put("c", new ModelValue(client == null ? "host" + clientHost : client));
        m.put("k", new ModelValue(keyOfHex.getOrDefault(hex(msg.key()), "?" + hex(msg.key()))));
        Long id = opOfRequest.getOrDefault(clientHost, Map.of()).get(msg.reqId());
        if (id == null) {
            throw new ReplayException("request id " + msg.reqId() + " of host " + clientHost
                    + " belongs to no replayed operation");
        }
        m.put("id", id);
        switch (msg.op()) {
            case KvOp.PUT_SEQ, KvOp.PUT_REPLY -> m.put("s", specSeq(msg.seq()));
            case KvOp.GET, KvOp.GET_FOR_CACHE -> m.put("cons", msg.op() == KvOp.GET_FOR_CACHE);
            default -> m.put("rec", recOf(StoredRecord.carriedBy(msg)));
        }
        return m;
    }

    private Map<String, Object> probeMessageOf(InnetMessage msg) {
        Long a = admissionOfProbe.get(msg.reqId());
        if (a == null) {
            throw new ReplayException("a " + KvOp.name(msg.op()) + " with request id " + msg.reqId()
                    + " belongs to no probe the controller sent");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t", msg.op() == KvOp.SEQ_PROBE ? "probe" : "probeR");
        m.put("k", new ModelValue(keyOfHex.getOrDefault(hex(msg.key()), "?" + hex(msg.key()))));
        m.put("a", a);
        if (msg.op() == KvOp.SEQ_PROBE_REPLY) {
            m.put("s", specSeq(msg.seq()));
        }
        return m;
    }

    // ------------------------------------------------------------------ the refinement mapping

    /**
     * The spec's sequence number of an implementation's: incarnation g's numbers start at
     * {@code SequenceBase.of(g)}, the spec's at {@code nW + nCrash} at g's restart (the writes issued
     * before it plus g - 1).
     */
    private long specSeq(long implSeq) {
        Incarnation in = incarnations.getFirst();
        for (Incarnation i : incarnations) {
            if (i.implBase() <= implSeq) {
                in = i;
            }
        }
        return in.specBase() + implSeq - in.implBase();
    }

    private Map<String, Object> recOf(StoredRecord r) {
        return WriteIds.rec(r.deleted() ? -1 : WriteIds.writeIdOf(r.value()), specSeq(r.seq()));
    }

    /**
     * The implementation's state as spec values: the switch's key table, record registers and sequence
     * counters (read through the control API), the server's store, the clients' outstanding operations,
     * the frames in flight, and what the clients were told (acknowledged writes, the last read).
     */
    @Override
    public Map<String, Object> observe() {
        SwitchControl c = target.control();
        Map<Object, Object> cached = new LinkedHashMap<>();
        Map<Object, Object> valid = new LinkedHashMap<>();
        Map<Object, Object> rrec = new LinkedHashMap<>();
        Map<Object, Object> ctr = new LinkedHashMap<>();
        Map<Object, Object> store = new LinkedHashMap<>();
        Map<Object, Object> doneMax = new LinkedHashMap<>();
        Map<Object, Object> seen = new LinkedHashMap<>();
        Map<Object, Object> fillFloor = new LinkedHashMap<>();
        Map<Object, Object> probing = new LinkedHashMap<>();
        Admit admitting = controller.currentAdmission();
        for (var e : keyBytes.entrySet()) {
            ModelValue k = new ModelValue(e.getKey());
            int index = indexOf(c, e.getValue());
            boolean isCached = index >= 0;
            boolean isValid = isCached && c.registerRead(CacheControlNames.RECORD_VALID, index).signum() != 0;
            cached.put(k, isCached);
            valid.put(k, isValid);
            rrec.put(k, isCached ? registers(isValid, recOf(StoredRecord.value(CacheRegisters.readValue(c, index),
                    c.registerRead(CacheControlNames.RECORD_SEQ, index).longValue()))) : UNCACHED);
            ctr.put(k, specSeq(c.registerRead(SequenceBase.SEQ_COUNTER, SequenceBase.slotOf(e.getValue())).longValue()));
            store.put(k, server.storedRecord(e.getValue()).map(this::recOf).orElse(WriteIds.rec(-1, -1)));
            doneMax.put(k, acknowledged.get(e.getKey()));
            seen.put(k, isCached ? specSeq(c.registerRead(CacheControlNames.RECORD_SEEN_SEQ, index).longValue())
                    : UNCACHED);
            long floor = isCached ? c.registerRead(CacheControlNames.RECORD_FILL_FLOOR, index).longValue() : 0;
            fillFloor.put(k, !isCached ? UNCACHED : floor == CacheControlNames.FLOOR_UNKNOWN ? FLOOR_UNKNOWN
                    : specSeq(floor));
            probing.put(k, admitting != null && admitting.awaitingFloor()
                    && Arrays.equals(admitting.key(), e.getValue()));
        }
        Map<Object, Object> busy = new LinkedHashMap<>();
        for (String client : hostOfClient.keySet()) {
            busy.put(new ModelValue(client), clients.get(client).busy());
        }
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("cached", new TlaFunction(cached));
        state.put("valid", new TlaFunction(valid));
        state.put("rrec", new TlaFunction(rrec));
        state.put("ctr", new TlaFunction(ctr));
        state.put("seen", new TlaFunction(seen));
        state.put("fillFloor", new TlaFunction(fillFloor));
        state.put("probing", new TlaFunction(probing));
        state.put("store", new TlaFunction(store));
        state.put("pend", new TlaFunction(busy));
        state.put("net", net.messages());
        state.put("doneMax", new TlaFunction(doneMax));
        state.put("lastRead", lastRead);
        return state;
    }

    /**
     * What a cached slot's registers say in spec terms: the record while valid or while a write is
     * staged (seq not 0); with nothing staged only the seq, since the value registers then hold whatever
     * an earlier record of the slot left (the spec keeps the key's own old value there, the switch the
     * slot's, possibly another key's), which nothing reads.
     */
    private static Object registers(boolean isValid, Map<String, Object> rec) {
        return isValid || asLong(rec.get("s")) != 0 ? rec : Map.of("s", rec.get("s"));
    }

    /**
     * What the implementation can show of the spec's variables: {@code pend} only as whether each client
     * has an operation outstanding (the read floor is history, kept by the replay as {@code lastRead});
     * {@code rrec} only where the key is cached, and without the value where nothing is staged.
     */
    @Override
    public Object projectSpec(String var, SpecStep state) {
        Object specValue = state.var(var);
        return switch (var) {
            case "pend" -> {
                Map<Object, Object> busy = new LinkedHashMap<>();
                for (var e : ((TlaFunction) specValue).mapping().entrySet()) {
                    busy.put(e.getKey(), !"none".equals(asRecord(e.getValue()).get("t")));
                }
                yield new TlaFunction(busy);
            }
            case "rrec" -> {
                Map<Object, Object> shown = new LinkedHashMap<>();
                TlaFunction cached = (TlaFunction) state.var("cached");
                TlaFunction valid = (TlaFunction) state.var("valid");
                for (var e : ((TlaFunction) specValue).mapping().entrySet()) {
                    shown.put(e.getKey(), Boolean.TRUE.equals(cached.apply(e.getKey()))
                            ? registers(Boolean.TRUE.equals(valid.apply(e.getKey())), asRecord(e.getValue())) : UNCACHED);
                }
                yield new TlaFunction(shown);
            }
            case "seen", "fillFloor" -> {
                // only a cached key's registers exist; the floor is unknown exactly while its probe is awaited
                Map<Object, Object> shown = new LinkedHashMap<>();
                TlaFunction cached = (TlaFunction) state.var("cached");
                TlaFunction probing = (TlaFunction) state.var("probing");
                for (var e : ((TlaFunction) specValue).mapping().entrySet()) {
                    boolean awaited = var.equals("fillFloor") && asLong(probing.apply(e.getKey())) != 0;
                    shown.put(e.getKey(), !Boolean.TRUE.equals(cached.apply(e.getKey())) ? UNCACHED
                            : awaited ? FLOOR_UNKNOWN : e.getValue());
                }
                yield new TlaFunction(shown);
            }
            case "probing" -> {
                Map<Object, Object> waits = new LinkedHashMap<>();
                for (var e : ((TlaFunction) specValue).mapping().entrySet()) {
                    waits.put(e.getKey(), asLong(e.getValue()) != 0);
                }
                yield new TlaFunction(waits);
            }
            default -> specValue;
        };
    }

    private static int indexOf(SwitchControl c, byte[] key) {
        return CacheRegisters.indexOf(c, key);
    }
}
