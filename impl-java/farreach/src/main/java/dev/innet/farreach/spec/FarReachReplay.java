package dev.innet.farreach.spec;

import static dev.innet.kv.spec.ReplayFrames.decode;
import static dev.innet.kv.spec.ReplayFrames.expectOnly;

import static dev.innet.farreach.spec.SpecValues.NO_REC;
import static dev.innet.farreach.spec.SpecValues.asLong;
import static dev.innet.farreach.spec.SpecValues.asRecord;
import static dev.innet.farreach.spec.SpecValues.name;
import static dev.innet.farreach.spec.SpecValues.rec;

import dev.innet.farreach.client.FarReachClient;
import dev.innet.farreach.controller.Admit;
import dev.innet.farreach.controller.ControllerHooks;
import dev.innet.farreach.controller.Evict;
import dev.innet.farreach.controller.FarReachControlNames;
import dev.innet.farreach.controller.FarReachController;
import dev.innet.farreach.controller.FarReachSettings;
import dev.innet.farreach.controller.Recover;
import dev.innet.farreach.controller.Snap;
import dev.innet.farreach.controller.SnapshotCodec;
import dev.innet.farreach.server.FarReachServer;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.cache.CacheControlNames;
import dev.innet.kv.cache.CacheControllerConfig;
import dev.innet.kv.cache.CacheRegisters;
import dev.innet.kv.cache.SequenceBase;
import dev.innet.kv.client.ClientConfig;
import dev.innet.kv.server.ServerConfig;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.kv.store.StoredRecord;
import dev.innet.protocol.KvResult;
import dev.innet.protocol.RackPorts;
import dev.innet.protocol.spec.ReplayContext;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecReplay;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.protocol.spec.SpecStep.ModelValue;
import dev.innet.protocol.spec.SpecStep.TlaFunction;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * FarReach.tla replayed on the implementation: p4/farreach.p4 on the replay target, one
 * {@link FarReachServer}, a {@link FarReachClient} per spec client, and FarReach's controller
 * procedures ({@link Admit}, {@link Evict}, {@link Snap}) stepped where the spec takes their actions. Every frame
 * between them is routed by this class, so the spec's choice of which message is delivered, lost or
 * duplicated next is followed exactly; the spec's network {@code net} corresponds to the frames in
 * flight here, each mapped back to the spec message it is (docs/conformance.md, "Refinement mapping").
 *
 * <p>Snapshots: {@code SnapStart} is {@link Snap}'s first stage (the epoch written to the switch),
 * {@code SnapLoad(k)} one load of exactly k's slot (chosen through
 * {@link FarReachController#nextSnapshotLoad}), {@code SnapFinish} the rest (epoch back to 0, originals
 * over loaded records, the snapshot kept, SNAPSHOT_DONE delivered to every client). The originals the
 * switch clones to the CPU port reach the controller in the step that changed the record, as the spec's
 * reliable {@code SendOriginal}. The controller runs one procedure at a time, so a snapshot never
 * overlaps an admission or an eviction: such interleavings are not replayable.
 *
 * <p>Switch crashes: {@code SwitchCrash} replaces the target by an empty switch (requests reaching it
 * are dropped: the {@code *Dropped} actions), and {@code Recover} is FarReach's {@link
 * dev.innet.farreach.controller.Recover} run to completion by the controller's own loop. The restarted
 * switch numbers writes from its incarnation's base ({@link SequenceBase}), the spec from the seq the
 * server holds: seqs are mapped by that offset per key ({@link #specSeq}).
 *
 * <p>Not replayed (reported as not replayable, never as passed): {@code EvictFinishNoAck}, which only a
 * buggy variant enables, and the interleavings named where they are refused.
 */
public final class FarReachReplay implements SpecReplay {
    private static final int SERVER = 1;
    private static final int FIRST_CLIENT = 2;
    private static final int CONTROLLER = RackPorts.CONTROLLER_HOST;
    /** High enough that no replayed request is flagged hot: hot reports are the spec's ServerReportHot only. */
    private static final long NEVER_HOT = 1_000_000_000L;
    /** Attempts per client operation: more than any replayed model's retry budget (MaxRetry) plus one. */
    private static final int CLIENT_ATTEMPTS = 16;

    /** Where a frame in flight is going, in the implementation's terms. */
    private enum Route {
        /** From the switch to the server (a forwarded request, or the controller's EVICT_STORE). */
        TO_SERVER,
        /** From the switch to a client (a reply the switch relayed). */
        TO_CLIENT,
        /** A server's GET_FOR_CACHE reply, not yet through the switch (the switch acts on it: SwitchGetReply). */
        SERVER_TO_SWITCH,
        /** From the switch's CPU port to the controller. */
        TO_CONTROLLER,
        /**
         * A server's hot report sent while the switch was down: it is still on the server's link and
         * crosses the switch when the spec delivers it (the spec's network keeps it across Recover).
         */
        HELD_AT_SERVER
    }

    /** A frame in flight and the spec message it is. */
    private record Flight(Map<String, Object> message, Route route, byte[] frame) {}

    private final ReplayTarget target;
    private final SwitchHandle handle = new SwitchHandle();
    private final Map<String, byte[]> keyBytes = new TreeMap<>();
    private final Map<String, String> keyOfHex = new HashMap<>();
    private final Map<String, Integer> hostOfClient = new TreeMap<>();
    private final Map<Integer, String> clientOfHost = new HashMap<>();
    private final Map<String, ReplayContext> clientContexts = new HashMap<>();
    private final Map<String, FarReachClient> clients = new HashMap<>();
    /** Per client host: request id -> the spec's write or read id of that operation. */
    private final Map<Integer, Map<Long, Long>> opOfRequest = new HashMap<>();
    private final List<Flight> net = new ArrayList<>();
    private final Map<String, Admit> admissions = new HashMap<>();
    /** The controller's probe request ids -> the spec's admission number of the probe (its field a). */
    private final Map<Long, Long> admissionOfProbe = new HashMap<>();
    private final Map<String, Evict> evictionsInFlight = new HashMap<>();
    private final Map<String, KvResult> completed = new HashMap<>();
    private ReplayContext serverContext;
    private ReplayContext controllerContext;
    private FarReachServer server;
    private ReplayController controller;
    /** The snapshot in progress (between SnapStart and SnapFinish), or null. */
    private Snap snapshot;
    /**
     * Per key, the seq of the record last evicted since the last SnapFinish: the implementation's
     * SNAPSHOT_DONE also covers those (the server holds them), the spec's only the snapshot's records.
     */
    private final Map<String, Long> evictedSinceSnapshot = new HashMap<>();
    /** Between SwitchCrash and Recover: the switch is the fresh, empty one the crash left (the spec's ~up). */
    private boolean switchDown;
    /**
     * Per key, per switch incarnation after the first: the incarnation's first sequence number (its base,
     * {@link SequenceBase#of}) -> the spec's counter of the key at that point (Recover's ctr', the seq the
     * server holds after the replay). The refinement mapping of seqs ({@link #specSeq}).
     */
    private final Map<String, TreeMap<Long, Long>> seqFloors = new HashMap<>();

    /** Builds the eviction procedure the spec's EvictStart begins (tests substitute a seeded bug). */
    @FunctionalInterface
    public interface EvictionFactory {
        Evict create(FarReachController controller, int index, byte[] key);
    }

    private final EvictionFactory evictions;

    /** Builds the snapshot procedure the spec's SnapStart begins (tests substitute a seeded bug). */
    @FunctionalInterface
    public interface SnapshotFactory {
        Snap create(FarReachController controller);
    }

    private final SnapshotFactory snapshots;

    /** Builds a client library for a spec client (tests substitute a seeded bug). */
    @FunctionalInterface
    public interface ClientFactory {
        FarReachClient create(ReplayContext context, ClientConfig config);
    }

    /** Builds the recovery procedure the spec's Recover runs (tests substitute a seeded bug). */
    @FunctionalInterface
    public interface RecoveryFactory {
        Recover create(FarReachController controller);
    }

    /** Builds the server (tests substitute a seeded bug). */
    @FunctionalInterface
    public interface ServerFactory {
        FarReachServer create(ServerConfig config, RecordStoreOpener opener);
    }

    private ClientFactory clientFactory = (ctx, config) -> new FarReachClient(ctx, config, null);
    private ServerFactory serverFactory = FarReachServer::new;
    private RecoveryFactory recoveries;

    public FarReachReplay(ReplayTarget target) {
        this(target, null, null);
    }

    /** Replays with {@code f}'s clients instead of FarReach's own; returns this (before {@link #init}). */
    public FarReachReplay withClients(ClientFactory f) {
        this.clientFactory = f;
        return this;
    }

    /** Replays with {@code f}'s server instead of FarReach's own; returns this (before {@link #init}). */
    public FarReachReplay withServer(ServerFactory f) {
        this.serverFactory = f;
        return this;
    }

    /** Replays Recover with {@code f}'s procedure instead of FarReach's own; returns this (before {@link #init}). */
    public FarReachReplay withRecovery(RecoveryFactory f) {
        this.recoveries = f;
        return this;
    }

    /** @param evictions the eviction procedure to replay, or null for FarReach's own */
    public FarReachReplay(ReplayTarget target, EvictionFactory evictions) {
        this(target, evictions, null);
    }

    /**
     * @param evictions the eviction procedure to replay, or null for FarReach's own
     * @param snapshots the snapshot procedure to replay, or null for FarReach's own
     */
    public FarReachReplay(ReplayTarget target, EvictionFactory evictions, SnapshotFactory snapshots) {
        this.target = target;
        this.evictions = evictions;
        this.snapshots = snapshots;
    }

    /**
     * FarReach's controller with its procedure factories opened to the replay (and no timers acted on),
     * and a snapshot that loads only the slot the spec's SnapLoad names.
     */
    private static final class ReplayController extends FarReachController {
        /** The slot the next snapshot step loads (SnapLoad), null when it loads none. */
        private Integer slotToLoad;
        private final RecoveryFactory recoveries;

        ReplayController(CacheControllerConfig config, SwitchHandle handle, RecoveryFactory recoveries) {
            super(config, new FarReachSettings(1_000_000, 0), handle, ControllerHooks.NONE);
            this.recoveries = recoveries;
        }

        @Override
        protected Recover newRecover(boolean resumeAtCollection) {
            return recoveries == null || resumeAtCollection ? super.newRecover(resumeAtCollection) : recoveries.create(this);
        }

        Snap snap() {
            return newSnap();
        }

        @Override
        protected int nextSnapshotLoad(List<Integer> unloaded, int loadedThisStep) {
            int position = slotToLoad == null || loadedThisStep > 0 ? -1 : unloaded.indexOf(slotToLoad);
            if (position >= 0) {
                slotToLoad = null;
            }
            return position;
        }

        Admit admit(int index, InnetMessage report) {
            return newAdmit(index, report);
        }

        Evict evict(int index, byte[] key) {
            return newEvict(index, key, false);
        }
    }

    // ------------------------------------------------------------------ set-up

    @Override
    public void init(SpecStep initial) {
        List<String> keys = namesOf(initial.var("crec"));
        List<String> clientNames = namesOf(initial.var("pend"));
        Map<Long, String> slots = new HashMap<>();
        for (String k : keys) {
            byte[] key = InnetMessage.key(k);
            String clash = slots.put(slotOf(key), k);
            if (clash != null) {
                throw new NotReplayable("keys " + clash + " and " + k + " share a sequence-number slot of the switch");
            }
            keyBytes.put(k, key);
            keyOfHex.put(hex(key), k);
        }
        int host = FIRST_CLIENT;
        for (String c : clientNames) {
            hostOfClient.put(c, host);
            clientOfHost.put(host, c);
            host++;
        }
        List<Integer> hosts = new ArrayList<>(List.of(SERVER));
        hosts.addAll(hostOfClient.values());
        hosts.add(CONTROLLER);
        handle.attach(target.control());
        CacheControllerConfig config = new CacheControllerConfig(hosts, List.of(SERVER), List.copyOf(hostOfClient.values()),
                keys.size(), 20_000, 200_000, 1_000_000_000, 8, 64, (int) NEVER_HOT, List.of(),
                CacheControllerConfig.MIN_CLIENT_SILENCE_REPORT_NANOS);
        controllerContext = new ReplayContext(CONTROLLER, 1);
        controller = new ReplayController(config, handle, recoveries);
        controller.onStart(controllerContext);
        // the controller's own loop adopts the switch (its first bring-up: forwarding programmed), so a
        // restarted switch later is its second bring-up, recovered by Recover with that incarnation's base
        tickController();
        if (controller.bringUps() != 1 || !controllerContext.takeSent().isEmpty()) {
            throw new ReplayException("the controller did not bring up the replay's switch quietly");
        }
        serverContext = new ReplayContext(SERVER, 2);
        server = serverFactory.create(new ServerConfig(List.of(SERVER), CONTROLLER, InnetMessage.MAX_VALUE_BYTES, 64,
                1_000_000_000_000L), RecordStoreOpener.memory());
        server.onStart(serverContext);
        for (String c : clientNames) {
            ReplayContext ctx = new ReplayContext(hostOfClient.get(c), 3);
            clientContexts.put(c, ctx);
            clients.put(c, newClient(ctx));
        }
    }

    private FarReachClient newClient(ReplayContext ctx) {
        // writes retried (ClientRetry) up to CLIENT_ATTEMPTS; ClientGiveUp loses the remaining copies
        return clientFactory.create(ctx, new ClientConfig(List.of(SERVER), 1_000_000, CLIENT_ATTEMPTS, true, 40000));
    }

    private static List<String> namesOf(Object function) {
        List<String> names = new ArrayList<>();
        for (Object k : ((TlaFunction) function).mapping().keySet()) {
            names.add(name(k));
        }
        names.sort(null);
        return names;
    }

    private static long slotOf(byte[] key) {
        return SequenceBase.slotOf(key);
    }

    private static String hex(byte[] key) {
        return java.util.HexFormat.of().formatHex(key);
    }

    /** The spec's actions this replay does not perform, with the reasons (FarReachConformance reports them). */
    static final Map<String, String> NOT_REPLAYABLE = Map.of(
            "EvictFinishNoAck", "only the BugEvictBeforeAck variant enables it; the implementation waits for the acknowledgement");

    // ------------------------------------------------------------------ actions

    @Override
    public void perform(SpecStep before, SpecStep step) {
        String a = step.actionName();
        switch (a) {
            case "ClientWriteHit" -> clientWrite(before, step, true);
            case "ClientWriteForward" -> clientWrite(before, step, false);
            case "ClientReadHit" -> clientRead(before, step, true);
            case "ClientReadForward" -> clientRead(before, step, false);
            case "ClientPutReply" -> deliverToClient(take(step, Route.TO_CLIENT, putR(step), false));
            case "ClientGetReply" -> deliverToClient(take(step, Route.TO_CLIENT, getR(step), false));
            case "ClientGiveUp" -> giveUp(name(step.param("c")));
            case "ClientRetry" -> clientRetry(before, step);
            case "ClientCrash" -> crashClient(name(step.param("c")));
            case "ServerPut" -> serverPut(step);
            case "ServerGet" -> serverGet(step);
            case "ServerEvict" -> serverEvict(step);
            case "ServerReportHot" -> reportHot(step);
            case "SwitchGetReply" -> switchGetReply(before, step);
            case "AdmitInstall" -> admitInstall(step);
            case "AdmitValidate" -> admitValidate(name(step.param("k")));
            case "ServerProbe" -> serverProbe(step);
            case "AdmitFloor" -> admitFloor(step);
            case "DiscardProbeReply" -> discardProbeReply(step);
            case "ProbeResend" -> probeResend(step);
            case "DiscardHot" -> takeHotReport(step, false);
            case "EvictStart" -> evictStart(step);
            case "EvictResend" -> evictResend(name(step.param("k")));
            case "EvictFinish" -> evictFinish(before, step);
            case "DiscardAck" -> discardAck(step);
            case "Lose" -> lose(asRecord(step.param("m")));
            case "SnapStart" -> snapStart();
            case "SnapLoad" -> snapLoad(name(step.param("k")));
            case "SnapFinish" -> snapFinish(before, step);
            case "SwitchCrash" -> switchCrash();
            case "ClientWriteDropped" -> clientDropped(step, true);
            case "ClientReadDropped" -> clientDropped(step, false);
            case "Recover" -> recover(step);
            default -> throw new NotReplayable(a + ": " + NOT_REPLAYABLE.getOrDefault(a, "not an action of FarReach.tla"));
        }
    }

    private void clientWrite(SpecStep before, SpecStep step, boolean hit) {
        String c = name(step.param("c"));
        String k = name(step.param("k"));
        long w = asLong(step.param("w"));
        FarReachClient client = clients.get(c);
        requireIdle(c);
        completed.remove(c);
        client.put(keyBytes.get(k), SpecValues.valueOf(w), r -> completed.put(c, r));
        List<ReplayTarget.Emitted> out = originalsToController(sendFromClient(c, w), before, step, k);
        writeThroughSwitch(c, out, hit, hit ? "ClientWriteHit" : "ClientWriteForward");
    }

    /**
     * What the switch did with a write (a first copy or a retry): answered it itself (absorbed by the
     * cache, the reply reaching the client in this step) or forwarded it to the server.
     */
    private void writeThroughSwitch(String c, List<ReplayTarget.Emitted> out, boolean answered, String action) {
        if (answered) {
            expectOnly(out, hostOfClient.get(c), action + ": the switch must answer the write itself");
            clients.get(c).onPacket(out.get(0).frame());
            requireCompleted(c, action);
        } else {
            expectOnly(out, SERVER, action + ": the switch must forward the write to the server");
            route(out.get(0), Route.TO_SERVER);
        }
    }

    private void clientRead(SpecStep before, SpecStep step, boolean hit) {
        String c = name(step.param("c"));
        String k = name(step.param("k"));
        long r = asLong(step.param("r"));
        FarReachClient client = clients.get(c);
        requireIdle(c);
        completed.remove(c);
        client.get(keyBytes.get(k), res -> completed.put(c, res));
        List<ReplayTarget.Emitted> out = originalsToController(sendFromClient(c, r), before, step, k);
        if (hit) {
            expectOnly(out, hostOfClient.get(c), "ClientReadHit: the switch must answer the read itself");
            client.onPacket(out.get(0).frame());
            requireCompleted(c, "ClientReadHit");
            long got = SpecValues.writeIdOf(completed.get(c).value());
            if (got != asLong(step.param("v"))) {
                throw new ReplayException("ClientReadHit: the client read value " + got + ", the spec reads "
                        + step.param("v"));
            }
        } else {
            expectOnly(out, SERVER, "ClientReadForward: the switch must forward the read to the server");
            route(out.get(0), Route.TO_SERVER);
        }
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

    private void requireIdle(String c) {
        if (clients.get(c).busy()) {
            throw new ReplayException("client " + c + " still has an operation outstanding");
        }
    }

    private void requireCompleted(String c, String action) {
        KvResult r = completed.get(c);
        if (r == null || r.outcome() != KvResult.Outcome.OK && r.outcome() != KvResult.Outcome.NOT_FOUND) {
            throw new ReplayException(action + ": the client's operation did not complete (" + r + ")");
        }
    }

    private void deliverToClient(Flight f) {
        int host = hostOfFrameDestination(f.frame());
        String c = clientOfHost.get(host);
        clients.get(c).onPacket(f.frame());
    }

    /**
     * The spec's ClientGiveUp. The client is configured to retry (ClientRetry), so its timeouts first send
     * the request again, up to its last attempt: those copies are lost before the switch (the spec's client
     * has nothing in flight when it gives up, and a copy that never reaches the switch changes nothing).
     */
    private void giveUp(String c) {
        ReplayContext ctx = clientContexts.get(c);
        FarReachClient client = clients.get(c);
        if (!client.busy()) {
            throw new ReplayException("ClientGiveUp: client " + c + " has no operation outstanding");
        }
        for (int attempt = 0; attempt < CLIENT_ATTEMPTS && client.busy(); attempt++) {
            for (long timer : ctx.pendingTimers()) {
                if (ctx.fire(timer)) {
                    client.onTimer(timer);
                }
            }
            if (client.busy()) {
                ctx.takeSent();
            }
        }
        if (client.busy() || !ctx.takeSent().isEmpty()) {
            throw new ReplayException("ClientGiveUp: client " + c + " did not give up after its last timeout");
        }
    }

    /**
     * The spec's ClientRetry: the client's write timer fires and the real client sends its write again
     * (same request id); the copy goes through the switch, which numbers it by farreach.p4's copy rule.
     * The spec says whether the switch absorbs it (answers the client in this step) or forwards it.
     */
    private void clientRetry(SpecStep before, SpecStep step) {
        String c = name(step.param("c"));
        String k = name(step.param("k"));
        long w = asLong(step.param("w"));
        ReplayContext ctx = clientContexts.get(c);
        FarReachClient client = clients.get(c);
        if (!client.busy()) {
            throw new ReplayException("ClientRetry: client " + c + " has no write outstanding");
        }
        completed.remove(c);
        for (long timer : ctx.pendingTimers()) {
            if (ctx.fire(timer)) {
                client.onTimer(timer);
            }
        }
        if (!client.busy()) {
            throw new ReplayException("ClientRetry: client " + c + " gave its write up instead of sending it again");
        }
        List<ReplayTarget.Emitted> out = originalsToController(sendFromClient(c, w), before, step, k);
        writeThroughSwitch(c, out, Boolean.TRUE.equals(step.param("hit")), "ClientRetry");
    }

    private void crashClient(String c) {
        ReplayContext ctx = clientContexts.get(c);
        ctx.restart();
        clients.put(c, newClient(ctx));
        completed.remove(c);
    }

    private void serverPut(SpecStep step) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t", "put");
        m.put("c", step.param("c"));
        m.put("k", step.param("k"));
        m.put("id", step.param("w"));
        m.put("s", step.param("s"));
        Flight f = take(step, Route.TO_SERVER, m, dup(step));
        server.onPacket(f.frame());
        routeServerOutput("ServerPut");
    }

    private void serverGet(SpecStep step) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t", "get");
        m.put("c", step.param("c"));
        m.put("k", step.param("k"));
        m.put("id", step.param("r"));
        Flight f = take(step, Route.TO_SERVER, m, dup(step));
        server.onPacket(f.frame());
        routeServerOutput("ServerGet");
    }

    private void serverEvict(SpecStep step) {
        deliverToServer(step, Map.of("t", "evict", "k", step.param("k"), "rec", step.param("rec")), "ServerEvict");
    }

    /** The controller's message {@code m} in flight is handed to the server, whose one reply is routed. */
    private void deliverToServer(SpecStep step, Map<String, Object> m, String action) {
        Flight f = take(step, Route.TO_SERVER, m, dup(step));
        server.onPacket(f.frame());
        routeServerOutput(action);
    }

    /** The server's one reply: through the switch now, unless the switch must act on it later (getRC). */
    private void routeServerOutput(String action) {
        List<byte[]> sent = serverContext.takeSent();
        if (sent.size() != 1) {
            throw new ReplayException(action + ": the server sent " + sent.size() + " frames, the spec one reply");
        }
        byte[] reply = sent.get(0);
        if (decode(reply).message().op() == KvOp.GET_FOR_CACHE_REPLY) {
            route(new ReplayTarget.Emitted(RackPorts.portOf(SERVER), reply), Route.SERVER_TO_SWITCH);
            return;
        }
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(SERVER), reply);
        if (out.size() != 1) {
            throw new ReplayException(action + ": the switch emitted " + out.size() + " frames relaying one reply");
        }
        route(out.get(0), out.get(0).port() == RackPorts.CPU_PORT ? Route.TO_CONTROLLER : Route.TO_CLIENT);
    }

    /**
     * The spec abstracts the server's hotness policy: any uncached key may be reported with its
     * current record. The replay sends the report the server would send, from the server's record.
     */
    private void reportHot(SpecStep step) {
        String k = name(step.param("k"));
        byte[] key = keyBytes.get(k);
        StoredRecord r = server.storedRecord(key).orElse(null);
        int status = r == null || r.deleted() ? KvStatus.NOT_FOUND : KvStatus.OK;
        int flags = r != null && r.deleted() ? KvOp.FLAG_DELETED : 0;
        InnetMessage report = new InnetMessage(KvOp.HOT_REPORT, flags, status, 0, key, r == null ? 0 : r.seq(),
                new byte[0], r == null ? new byte[0] : r.value());
        UdpFrame frame = new UdpFrame(RackAddressing.hostMac(CONTROLLER), RackAddressing.hostMac(SERVER),
                RackAddressing.hostIp(SERVER), RackAddressing.hostIp(CONTROLLER), KvOp.CONTROL_PORT, KvOp.CONTROL_PORT,
                report.encode());
        if (switchDown) {
            route(new ReplayTarget.Emitted(RackPorts.portOf(SERVER), frame.encode()), Route.HELD_AT_SERVER);
            return;
        }
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(SERVER), frame.encode());
        expectOnly(out, CONTROLLER, "ServerReportHot: the switch must pass the report to the controller");
        route(out.get(0), Route.TO_CONTROLLER);
    }

    private void switchGetReply(SpecStep before, SpecStep step) {
        Map<String, Object> m = Map.of("t", "getRC", "c", step.param("c"), "k", step.param("k"), "id", step.param("r"),
                "rec", step.param("rec"));
        Flight f = take(step, Route.SERVER_TO_SWITCH, m, dup(step));
        List<ReplayTarget.Emitted> out = originalsToController(target.inject(RackPorts.portOf(SERVER), f.frame()), before,
                step, name(step.param("k")));
        String c = name(step.param("c"));
        expectOnly(out, hostOfClient.get(c), "SwitchGetReply: the switch must relay the reply to the client");
        completed.remove(c);
        clients.get(c).onPacket(out.get(0).frame());
    }

    private void admitInstall(SpecStep step) {
        String k = name(step.param("k"));
        requireNoSnapshot("AdmitInstall");
        InnetMessage report = decode(takeHotReport(step, dup(step))).message();
        int index = controller.directory().take(keyBytes.get(k));
        Admit admit = controller.admit(index, report);
        for (int stage = 0; stage < 3; stage++) {
            if (admit.step(target.control())) {
                throw new ReplayException("AdmitInstall: the admission finished before validating the record");
            }
        }
        admissions.put(k, admit);
        // the probe of the key's server, sent with the install, is the spec's probe of this admission
        long a = asLong(((TlaFunction) step.var("probing")).apply(step.param("k")));
        sendProbe("AdmitInstall", a);
    }

    /** The controller's SEQ_PROBE (sent or resent) of admission {@code a}, through the switch to the server. */
    private void sendProbe(String action, long a) {
        byte[] probe = controllersOneFrame(action, "SEQ_PROBE");
        if (decode(probe).message().op() != KvOp.SEQ_PROBE) {
            throw new ReplayException(action + ": the controller sent " + KvOp.name(decode(probe).message().op())
                    + ", the spec a SEQ_PROBE");
        }
        admissionOfProbe.put(decode(probe).message().reqId(), a);
        throughSwitchToServer(probe, action, "SEQ_PROBE");
    }

    private void serverProbe(SpecStep step) {
        deliverToServer(step, Map.of("t", "probe", "k", step.param("k"), "a", step.param("adm")), "ServerProbe");
    }

    /** The probe's reply reaches the admission in progress, which writes the fill floor (FR-11). */
    private void admitFloor(SpecStep step) {
        String k = name(step.param("k"));
        Map<String, Object> m = Map.of("t", "probeR", "k", step.param("k"), "a", step.param("adm"), "s", step.param("s"));
        Flight f = take(step, Route.TO_CONTROLLER, m, dup(step));
        Admit admit = admissions.get(k);
        if (admit == null) {
            throw new ReplayException("AdmitFloor: no admission of " + k + " is in progress");
        }
        if (!admit.onReply(decode(f.frame()).message())) {
            throw new ReplayException("AdmitFloor: the admission of " + k + " did not take its probe's reply");
        }
        if (admit.step(target.control())) {
            throw new ReplayException("AdmitFloor: the admission finished before validating the record");
        }
        SwitchControl c = target.control();
        long floor = c.registerRead(CacheControlNames.RECORD_FILL_FLOOR, indexOf(c, keyBytes.get(k))).longValue();
        long expected = asLong(((TlaFunction) step.var("fillFloor")).apply(step.param("k")));
        if (floor == CacheControlNames.FLOOR_UNKNOWN || specSeq(k, floor) != expected) {
            throw new ReplayException("AdmitFloor: the switch's fill floor of " + k + " is " + floor + " (spec seq "
                    + (floor == CacheControlNames.FLOOR_UNKNOWN ? "unknown" : specSeq(k, floor)) + "), the spec's "
                    + expected);
        }
    }

    /** A probe reply no admission in progress waits for reaches the controller, which must ignore it. */
    private void discardProbeReply(SpecStep step) {
        String k = name(step.param("k"));
        Map<String, Object> m = Map.of("t", "probeR", "k", step.param("k"), "a", step.param("adm"), "s", step.param("s"));
        Flight f = take(step, Route.TO_CONTROLLER, m, false);
        Admit admit = admissions.get(k);
        if (admit != null && admit.onReply(decode(f.frame()).message())) {
            throw new ReplayException("DiscardProbeReply: the admission of " + k
                    + " in progress took another admission's probe reply as its own");
        }
    }

    private void probeResend(SpecStep step) {
        String k = name(step.param("k"));
        Admit admit = admissions.get(k);
        if (admit == null) {
            throw new ReplayException("ProbeResend: no admission of " + k + " is in progress");
        }
        admit.retransmit();
        sendProbe("ProbeResend", asLong(((TlaFunction) step.var("probing")).apply(step.param("k"))));
    }

    /**
     * The hot report the spec delivers to the controller, as the controller receives it: one the switch
     * passed to the CPU port, or one held on the server's link while the switch was down, which crosses
     * the (recovered) switch now.
     */
    private byte[] takeHotReport(SpecStep step, boolean duplicate) {
        Map<String, Object> hot = new LinkedHashMap<>(Map.of("t", "hot", "k", step.param("k")));
        if (step.actionName().equals("AdmitInstall")) {
            hot.put("rec", step.param("rec")); // DiscardHot names only the key
        }
        boolean held = net.stream().anyMatch(f -> f.route() == Route.HELD_AT_SERVER && matches(f.message(), hot));
        Flight f = take(step, held ? Route.HELD_AT_SERVER : Route.TO_CONTROLLER, hot, duplicate);
        if (!held || step.actionName().equals("DiscardHot")) {
            // a held report the controller would discard may as well be lost at the crashed switch
            return f.frame();
        }
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(SERVER), f.frame());
        expectOnly(out, CONTROLLER, step.actionName() + ": the switch must pass the held hot report to the controller");
        return out.get(0).frame();
    }

    private void admitValidate(String k) {
        Admit admit = admissions.remove(k);
        if (admit == null) {
            throw new ReplayException("AdmitValidate: no admission of " + k + " is in progress");
        }
        if (!admit.step(target.control())) {
            throw new ReplayException("AdmitValidate: the admission did not finish with its validation");
        }
    }

    private void evictStart(SpecStep step) {
        String k = name(step.param("k"));
        requireNoSnapshot("EvictStart");
        int index = indexOf(target.control(), keyBytes.get(k));
        if (index < 0) {
            throw new ReplayException("EvictStart: " + k + " is not in the switch's key table");
        }
        Evict evict = evictions != null ? evictions.create(controller, index, keyBytes.get(k))
                : controller.evict(index, keyBytes.get(k));
        if (evict.step(target.control()) || evict.step(target.control())) {
            throw new ReplayException("EvictStart: the eviction finished without the server's acknowledgement");
        }
        evictionsInFlight.put(k, evict);
        sendFromController("EvictStart");
    }

    private void evictResend(String k) {
        Evict evict = evictionsInFlight.get(k);
        if (evict == null) {
            throw new ReplayException("EvictResend: no eviction of " + k + " is in progress");
        }
        evict.retransmit();
        sendFromController("EvictResend");
    }

    /** The controller's EVICT_STORE, through the switch (CPU port in, server port out). */
    private void sendFromController(String action) {
        throughSwitchToServer(controllersOneFrame(action, "EVICT_STORE"), action, "EVICT_STORE");
    }

    /** The one frame the controller sent in this step (the spec's one message {@code what}). */
    private byte[] controllersOneFrame(String action, String what) {
        List<byte[]> sent = controllerContext.takeSent();
        if (sent.size() != 1) {
            throw new ReplayException(action + ": the controller sent " + sent.size() + " frames, the spec one " + what);
        }
        return sent.get(0);
    }

    /** A controller's frame through the switch (CPU port in), which must pass it to the server alone. */
    private void throughSwitchToServer(byte[] frame, String action, String what) {
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.CPU_PORT, frame);
        expectOnly(out, SERVER, action + ": the switch must pass " + what + " to the server");
        route(out.get(0), Route.TO_SERVER);
    }

    private void evictFinish(SpecStep before, SpecStep step) {
        String k = name(step.param("k"));
        Evict evict = evictionsInFlight.get(k);
        if (evict == null) {
            throw new ReplayException("EvictFinish: no eviction of " + k + " is in progress");
        }
        // the acknowledgement the spec delivers carries the seq of the record being evicted
        long s = asLong(asRecord(((TlaFunction) before.var("evRec")).apply(step.param("k"))).get("s"));
        Flight f = take(step, Route.TO_CONTROLLER, Map.of("t", "evictAck", "k", step.param("k"), "s", s), dup(step));
        if (!evict.onReply(decode(f.frame()).message())) {
            // The spec matches an acknowledgement by the record's seq, so an acknowledgement of an earlier
            // eviction of the same record may finish this one; the implementation matches the request id,
            // which is stricter. Not a divergence the implementation can be blamed for: not replayable.
            throw new NotReplayable("EvictFinish: the acknowledgement in flight answers an earlier eviction of the same "
                    + "record; the implementation matches acknowledgements by request id, more strictly than the spec");
        }
        if (!evict.step(target.control())) {
            throw new ReplayException("EvictFinish: the eviction did not finish after its acknowledgement");
        }
        evictionsInFlight.remove(k);
        evictedSinceSnapshot.put(k, s);
        controllerContext.takeSent();
    }

    private void discardAck(SpecStep step) {
        String k = name(step.param("k"));
        Flight f = take(step, Route.TO_CONTROLLER, Map.of("t", "evictAck", "k", step.param("k")), false);
        Evict evict = evictionsInFlight.get(k);
        if (evict != null && evict.onReply(decode(f.frame()).message())) {
            throw new ReplayException("DiscardAck: the eviction in progress took a stale acknowledgement as its own");
        }
    }

    private void lose(Map<String, Object> m) {
        Map<String, Object> pattern = new LinkedHashMap<>(m);
        pattern.remove("fs");
        for (int i = 0; i < net.size(); i++) {
            if (matches(net.get(i).message(), pattern)) {
                net.remove(i);
                return;
            }
        }
        throw new ReplayException("Lose: no message " + m + " is in flight; in flight: " + messages());
    }

    // ------------------------------------------------------------------ snapshots

    /**
     * The controller runs one procedure at a time (CacheController's task), so it never admits or
     * evicts while a snapshot is in progress, nor starts one during an admission or eviction. The spec
     * interleaves them freely (its corner cases: late admissions are left out of the snapshot,
     * FinishEviction saves the evicted record into snapLoad); those behaviours have no counterpart here.
     */
    private void requireNoSnapshot(String action) {
        if (snapshot != null) {
            throw new NotReplayable(action + " while snapOn: the implementation's controller runs one procedure at a"
                    + " time, so it never admits or evicts during a snapshot");
        }
    }

    /** The snapshot point: Snap's first stage writes the new epoch to the switch's snapshot_epoch register. */
    private void snapStart() {
        if (!admissions.isEmpty() || !evictionsInFlight.isEmpty()) {
            throw new NotReplayable("SnapStart while " + (admissions.isEmpty() ? "the eviction of "
                    + evictionsInFlight.keySet() : "the admission of " + admissions.keySet()) + " is in progress: the"
                    + " implementation's controller runs one procedure at a time, so a snapshot starts only between them");
        }
        snapshot = snapshots != null ? snapshots.create(controller) : controller.snap();
        if (snapshot.step(target.control())) {
            throw new ReplayException("SnapStart: the snapshot finished at its snapshot point");
        }
    }

    /** One load of exactly k's slot (the spec loads one key per step, in any order). */
    private void snapLoad(String k) {
        if (snapshot == null) {
            throw new ReplayException("SnapLoad: no snapshot is in progress");
        }
        int index = indexOf(target.control(), keyBytes.get(k));
        if (index < 0) {
            throw new ReplayException("SnapLoad: " + k + " is not in the switch's key table");
        }
        controller.slotToLoad = index;
        if (snapshot.step(target.control())) {
            throw new ReplayException("SnapLoad: the snapshot finished while loading " + k);
        }
        if (controller.slotToLoad != null) {
            controller.slotToLoad = null;
            throw new ReplayException("SnapLoad: the snapshot has no record of " + k + " (slot " + index
                    + ") left to load");
        }
    }

    /**
     * Phase 2 and completion: the snapshot's remaining stages run in this one spec step (the epoch back
     * to 0, originals over loaded records, the snapshot kept), and the controller's SNAPSHOT_DONE frames
     * pass the switch and reach every client, which release the preserved records they cover.
     */
    private void snapFinish(SpecStep before, SpecStep step) {
        if (snapshot == null) {
            throw new ReplayException("SnapFinish: no snapshot is in progress");
        }
        requireSameRelease(before, step);
        boolean done = false;
        for (int stage = 0; stage < 4 && !done; stage++) {
            done = snapshot.step(target.control());
        }
        if (!done) {
            throw new ReplayException("SnapFinish: the snapshot did not complete (records left to load, or originals"
                    + " missing)");
        }
        snapshot = null;
        evictedSinceSnapshot.clear();
        for (byte[] notice : controllerContext.takeSent()) {
            int client = hostOfFrameDestination(notice);
            List<ReplayTarget.Emitted> out = target.inject(RackPorts.CPU_PORT, notice);
            expectOnly(out, client, "SnapFinish: the switch must pass SNAPSHOT_DONE to client host " + client);
            if (decode(out.get(0).frame()).message().op() != KvOp.SNAPSHOT_DONE) {
                throw new ReplayException("SnapFinish: the controller sent "
                        + KvOp.name(decode(out.get(0).frame()).message().op()) + ", expected SNAPSHOT_DONE");
            }
            clients.get(clientOfHost.get(client)).onPacket(out.get(0).frame());
        }
    }

    /**
     * The implementation's SNAPSHOT_DONE also covers records evicted since the last snapshot (the server
     * stores them), so a client may release a preserved record the spec keeps: the spec's SnapFinish
     * releases only what {@code snap'} covers. Such a step is not replayable (the implementation only
     * releases more safely-stored records, which the spec does not model).
     */
    private void requireSameRelease(SpecStep before, SpecStep step) {
        Map<Object, Object> snapAfter = ((TlaFunction) step.var("snap")).mapping();
        for (var byClient : ((TlaFunction) before.var("pres")).mapping().entrySet()) {
            for (var e : ((TlaFunction) byClient.getValue()).mapping().entrySet()) {
                Map<String, Object> preserved = asRecord(e.getValue());
                Long evicted = evictedSinceSnapshot.get(name(e.getKey()));
                if (preserved.equals(NO_REC) || evicted == null) {
                    continue;
                }
                long s = asLong(preserved.get("s"));
                Map<String, Object> snapRec = asRecord(snapAfter.get(e.getKey()));
                boolean specReleases = !snapRec.equals(NO_REC) && s <= asLong(snapRec.get("s"));
                if (!specReleases && s <= evicted) {
                    throw new NotReplayable("SnapFinish: client " + name(byClient.getKey()) + " would release its"
                            + " preserved record of " + name(e.getKey()) + " (seq " + s + "), covered by the eviction"
                            + " of seq " + evicted + " that the implementation's SNAPSHOT_DONE announces; the spec's"
                            + " SnapFinish releases only records the snapshot covers");
                }
            }
        }
    }

    /**
     * Takes the SNAPSHOT_ORIGINAL frames the switch cloned to the CPU port out of {@code out} and hands
     * them to the controller now: the spec's SendOriginal is reliable and happens inside the step that
     * changes the record. The switch must send k's original exactly when the spec's does (snapSent[k]
     * turns TRUE in this step), and it must carry the record as it was before the step.
     */
    private List<ReplayTarget.Emitted> originalsToController(List<ReplayTarget.Emitted> out, SpecStep before,
            SpecStep step, String k) {
        List<ReplayTarget.Emitted> rest = new ArrayList<>();
        List<byte[]> originals = new ArrayList<>();
        for (ReplayTarget.Emitted e : out) {
            if (e.port() == RackPorts.CPU_PORT && decode(e.frame()).message().op() == KvOp.SNAPSHOT_ORIGINAL) {
                originals.add(e.frame());
            } else {
                rest.add(e);
            }
        }
        ModelValue key = new ModelValue(k);
        boolean specSends = !Boolean.TRUE.equals(((TlaFunction) before.var("snapSent")).apply(key))
                && Boolean.TRUE.equals(((TlaFunction) step.var("snapSent")).apply(key));
        String action = step.actionName();
        if (originals.size() != (specSends ? 1 : 0)) {
            throw new ReplayException(action + ": the switch sent " + originals.size() + " SNAPSHOT_ORIGINAL frames of "
                    + k + ", the spec " + (specSends ? "one (SendOriginal: snapSent[" + k + "] turns TRUE)"
                    : "none (snapOn = " + before.var("snapOn") + ", snapSent[" + k + "] = "
                    + ((TlaFunction) before.var("snapSent")).apply(key) + ")"));
        }
        for (byte[] original : originals) {
            InnetMessage msg = decode(original).message();
            Map<String, Object> carried = specRecord(k, StoredRecord.carriedBy(msg));
            Object specOriginal = ((TlaFunction) before.var("crec")).apply(key);
            if (!k.equals(keyOfHex.get(hex(msg.key()))) || !carried.equals(specOriginal)) {
                throw new ReplayException(action + ": the switch's SNAPSHOT_ORIGINAL carries " + keyOfHex.get(hex(msg.key()))
                        + " " + carried + ", the spec's original of " + k + " is " + specOriginal);
            }
            controller.onPacket(original);
        }
        return rest;
    }

    // ------------------------------------------------------------------ switch crash and recovery

    /**
     * The spec's SwitchCrash: every register and table is lost (the target is replaced by an empty
     * switch) and every frame in flight with it; the procedures in progress are abandoned. The
     * controller is not told: its loop notices the new switch at its next step, which Recover takes.
     */
    private void switchCrash() {
        target.crash();
        handle.attach(target.control());
        net.clear();
        admissions.clear();
        evictionsInFlight.clear();
        snapshot = null;
        switchDown = true;
    }

    /** A client's request reaching the crashed switch, which has no routes yet and drops it. */
    private void clientDropped(SpecStep step, boolean write) {
        String action = step.actionName();
        if (!switchDown) {
            throw new ReplayException(action + ": the switch is up");
        }
        String c = name(step.param("c"));
        String k = name(step.param("k"));
        long id = asLong(step.param(write ? "w" : "r"));
        requireIdle(c);
        completed.remove(c);
        if (write) {
            clients.get(c).put(keyBytes.get(k), SpecValues.valueOf(id), r -> completed.put(c, r));
        } else {
            clients.get(c).get(keyBytes.get(k), r -> completed.put(c, r));
        }
        List<ReplayTarget.Emitted> out = sendFromClient(c, id);
        if (!out.isEmpty()) {
            throw new ReplayException(action + ": the crashed switch must drop the request; it emitted " + out.size()
                    + " frames");
        }
    }

    /** Bound on the controller steps of one recovery: it needs four (gate, collection, replay, re-admission). */
    private static final int RECOVERY_STEPS = 16;

    /**
     * The spec's Recover is one atomic step; here it is FarReach's {@code Recover} procedure run to
     * completion: the controller's loop adopts the new switch (its second bring-up, so the procedure is
     * Recover), then each of its steps runs and every frame it sends is carried through the switch to
     * its host and the host's answers back (PRESERVED_REQUEST to every client, their PRESERVED_RECORDs,
     * RECOVER_STORE to the server and its acknowledgement, SEQ_FENCE and its acknowledgement, the closing SNAPSHOT_DONE that releases the
     * clients' preserved records). Time stands still, so every client answers before the deadline, as
     * the spec's Recover (all live clients' records) assumes.
     */
    private void recover(SpecStep recoverStep) {
        if (!switchDown) {
            throw new ReplayException("Recover: the switch is up");
        }
        long recoveries = controller.stats().recoveries;
        for (int step = 0; step < RECOVERY_STEPS && controller.stats().recoveries == recoveries; step++) {
            tickController();
            carryControllerTraffic();
        }
        if (controller.stats().recoveries == recoveries) {
            throw new ReplayException("Recover: the controller's recovery did not complete in " + RECOVERY_STEPS
                    + " steps (procedure: " + controller.currentProcedure() + ")");
        }
        switchDown = false;
        // The restarted switch numbers k's writes from its base ((g-1) * 2^24); the spec's from its own
        // incarnation base (Recover's ctr'[k], FarReach.tla's IncarnationBase). Both are above every seq
        // assigned before, so seqs at or above the base map to the spec's by that offset. The fenced
        // server reports every record at exactly the base (the spec's Fenced): nothing above it yet.
        long base = SequenceBase.of(controller.bringUps());
        TlaFunction specCounters = (TlaFunction) recoverStep.var("ctr");
        for (var e : keyBytes.entrySet()) {
            long held = server.storedRecord(e.getValue()).map(StoredRecord::seq).orElse(0L);
            if (held > base) {
                throw new ReplayException("Recover: the server holds seq " + held + " of " + e.getKey()
                        + ", above the new incarnation's base " + base);
            }
            long specBase = asLong(specCounters.apply(new ModelValue(e.getKey())));
            seqFloors.computeIfAbsent(e.getKey(), x -> new TreeMap<>()).put(base, specBase);
        }
    }

    /** Fires the controller's pending timers: its loop's step (and its counter reset, which nothing here reads). */
    private void tickController() {
        for (long timer : controllerContext.pendingTimers()) {
            if (controllerContext.fire(timer)) {
                controller.onTimer(timer);
            }
        }
    }

    /**
     * Carries the controller's frames through the switch (CPU port in) to their hosts, and the hosts'
     * answers back through the switch to the controller, until nothing more is sent.
     */
    private void carryControllerTraffic() {
        for (int round = 0; round < RECOVERY_STEPS; round++) {
            List<byte[]> fromController = controllerContext.takeSent();
            if (fromController.isEmpty()) {
                return;
            }
            for (byte[] frame : fromController) {
                int host = hostOfFrameDestination(frame);
                List<ReplayTarget.Emitted> out = target.inject(RackPorts.CPU_PORT, frame);
                expectOnly(out, host, "Recover: the switch must pass the controller's "
                        + KvOp.name(decode(frame).message().op()) + " to host " + host);
                ReplayContext ctx = host == SERVER ? serverContext : clientContexts.get(clientOfHost.get(host));
                if (host == SERVER) {
                    server.onPacket(out.get(0).frame());
                } else {
                    clients.get(clientOfHost.get(host)).onPacket(out.get(0).frame());
                }
                for (byte[] answer : ctx.takeSent()) {
                    List<ReplayTarget.Emitted> back = target.inject(RackPorts.portOf(host), answer);
                    expectOnly(back, CONTROLLER, "Recover: the switch must pass host " + host + "'s "
                            + KvOp.name(decode(answer).message().op()) + " to the controller");
                    controller.onPacket(back.get(0).frame());
                }
            }
        }
        throw new ReplayException("Recover: the controller and the hosts kept exchanging frames");
    }

    /**
     * The spec's seq of k for an implementation seq: the same number in the switch's first incarnation;
     * in a later one, whose counters start at its base ((g-1) * 2^24), the seq minus the base plus the
     * spec's counter of k at that recovery. Both number k's writes consecutively from there, and every
     * seq of an incarnation is above every seq of the earlier ones in both, so the order is kept.
     */
    private long specSeq(String k, long seq) {
        TreeMap<Long, Long> floors = seqFloors.get(k);
        var floor = floors == null ? null : floors.floorEntry(seq);
        return floor == null ? seq : seq - floor.getKey() + floor.getValue();
    }

    /** A record of k as the spec's record: its write id and the spec's seq. */
    private Map<String, Object> specRecord(String k, StoredRecord r) {
        Map<String, Object> rec = SpecValues.recOf(r);
        rec.put("s", specSeq(k, r.seq()));
        return rec;
    }

    // ------------------------------------------------------------------ the network

    private static boolean dup(SpecStep step) {
        return Boolean.TRUE.equals(step.param("dup"));
    }

    private static Map<String, Object> putR(SpecStep step) {
        return Map.of("t", "putR", "c", step.param("c"), "k", step.param("k"), "id", step.param("w"), "s", step.param("s"));
    }

    /**
     * The GET_REPLY the spec delivers: a read delivered twice to the server (a duplicate) before and
     * after a write yields two replies that differ only in the record, so the value read picks one.
     */
    private static Predicate<Map<String, Object>> getR(SpecStep step) {
        Map<String, Object> fields = Map.of("t", "getR", "c", step.param("c"), "k", step.param("k"), "id", step.param("r"));
        return m -> matches(m, fields) && asRecord(m.get("rec")).get("v").equals(step.param("v"));
    }

    /** Takes the flight on {@code route} that matches {@code pattern} (kept in flight when duplicated). */
    private Flight take(SpecStep step, Route route, Map<String, Object> pattern, boolean duplicate) {
        return take(step, route, new Predicate<>() {
            @Override
            public boolean test(Map<String, Object> m) {
                return matches(m, pattern);
            }

            @Override
            public String toString() {
                return pattern.toString();
            }
        }, duplicate);
    }

    private Flight take(SpecStep step, Route route, Predicate<Map<String, Object>> wanted, boolean duplicate) {
        for (int i = 0; i < net.size(); i++) {
            Flight f = net.get(i);
            if (f.route() == route && wanted.test(f.message())) {
                if (!duplicate) {
                    net.remove(i);
                }
                return f;
            }
        }
        throw new ReplayException(step.actionName() + ": no message " + wanted + " is in flight in the implementation; "
                + "in flight: " + messages());
    }

    private static boolean matches(Map<String, Object> message, Map<String, Object> pattern) {
        for (var e : pattern.entrySet()) {
            if (!e.getValue().equals(message.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Puts a frame in flight. The spec's network is a set: a second frame that is the same spec message
     * as one already in flight (a server answering a duplicated request twice, or acknowledging two
     * evictions of the same record) is that message, so the replay keeps one frame per message: the
     * newest, as if the network had lost the older copy (which it may). The newest is the one the
     * implementation's current procedure waits for (an acknowledgement carries its request's id).
     */
    private void route(ReplayTarget.Emitted e, Route route) {
        Flight f = new Flight(specMessageOf(e.frame()), route, e.frame());
        net.removeIf(in -> in.route() == route && in.message().equals(f.message()));
        net.add(f);
    }

    private static int hostOfFrameDestination(byte[] frame) {
        return RackAddressing.hostOfIp(decode(frame).frame().dstIp());
    }

    /** The spec message a frame in flight is (without the FIFO position {@code fs}). */
    private Map<String, Object> specMessageOf(byte[] frame) {
        InnetPacket p = decode(frame);
        InnetMessage msg = p.message();
        Map<String, Object> m = new LinkedHashMap<>();
        String keyName = keyOfHex.getOrDefault(hex(msg.key()), "?" + hex(msg.key()));
        ModelValue k = new ModelValue(keyName);
        int clientHost = msg.isReply() ? RackAddressing.hostOfIp(p.frame().dstIp()) : RackAddressing.hostOfIp(p.frame().srcIp());
        switch (msg.op()) {
            case KvOp.PUT_SEQ, KvOp.PUT_REPLY -> {
                m.put("t", msg.op() == KvOp.PUT_SEQ ? "put" : "putR");
                m.put("c", new ModelValue(clientOfHost.get(clientHost)));
                m.put("k", k);
                m.put("id", opOf(clientHost, msg.reqId()));
                m.put("s", specSeq(keyName, msg.seq()));
            }
            case KvOp.GET, KvOp.GET_FOR_CACHE, KvOp.GET_EMBED -> {
                m.put("t", "get");
                m.put("c", new ModelValue(clientOfHost.get(clientHost)));
                m.put("k", k);
                m.put("id", opOf(clientHost, msg.reqId()));
                m.put("emb", msg.op() == KvOp.GET_EMBED ? specRecord(keyName, StoredRecord.carriedBy(msg)) : NO_REC);
                m.put("cons", msg.op() == KvOp.GET_FOR_CACHE);
            }
            case KvOp.GET_REPLY, KvOp.GET_FOR_CACHE_REPLY -> {
                m.put("t", msg.op() == KvOp.GET_REPLY ? "getR" : "getRC");
                m.put("c", new ModelValue(clientOfHost.get(clientHost)));
                m.put("k", k);
                m.put("id", opOf(clientHost, msg.reqId()));
                m.put("rec", specRecord(keyName, StoredRecord.carriedBy(msg))); // nothing stored: value empty, seq 0
            }
            case KvOp.HOT_REPORT -> {
                m.put("t", "hot");
                m.put("k", k);
                m.put("rec", specRecord(keyName, StoredRecord.carriedBy(msg)));
            }
            case KvOp.EVICT_STORE -> {
                m.put("t", "evict");
                m.put("k", k);
                m.put("rec", specRecord(keyName, StoredRecord.carriedBy(msg)));
            }
            case KvOp.EVICT_STORE_REPLY -> {
                m.put("t", "evictAck");
                m.put("k", k);
                m.put("s", specSeq(keyName, msg.seq()));
            }
            case KvOp.SEQ_PROBE, KvOp.SEQ_PROBE_REPLY -> {
                Long a = admissionOfProbe.get(msg.reqId());
                if (a == null) {
                    throw new ReplayException("a " + KvOp.name(msg.op()) + " with request id " + msg.reqId()
                            + " answers no probe the controller sent");
                }
                m.put("t", msg.op() == KvOp.SEQ_PROBE ? "probe" : "probeR");
                m.put("k", k);
                m.put("a", a);
                if (msg.op() == KvOp.SEQ_PROBE_REPLY) {
                    m.put("s", specSeq(keyName, msg.seq()));
                }
            }
            default -> throw new ReplayException("the implementation sent " + KvOp.name(msg.op())
                    + ", which has no counterpart among the spec's messages");
        }
        return m;
    }

    private long opOf(int clientHost, long reqId) {
        Long id = opOfRequest.getOrDefault(clientHost, Map.of()).get(reqId);
        if (id == null) {
            throw new ReplayException("request id " + reqId + " of host " + clientHost + " belongs to no replayed operation");
        }
        return id;
    }

    private Set<Map<String, Object>> messages() {
        Set<Map<String, Object>> out = new LinkedHashSet<>();
        for (Flight f : net) {
            out.add(f.message());
        }
        return out;
    }

    // ------------------------------------------------------------------ the refinement mapping

    /**
     * The implementation's state as spec values: the switch's key table and record registers (read
     * through the control API), its sequence counters, the server's store, whether the switch is in a
     * snapshot and the controller's last completed snapshot, the clients' preserved records and
     * outstanding operations, and the messages in flight.
     */
    @Override
    public Map<String, Object> observe() {
        SwitchControl c = target.control();
        Map<Object, Object> crec = new LinkedHashMap<>();
        Map<Object, Object> valid = new LinkedHashMap<>();
        Map<Object, Object> latest = new LinkedHashMap<>();
        Map<Object, Object> tbe = new LinkedHashMap<>();
        Map<Object, Object> ctr = new LinkedHashMap<>();
        Map<Object, Object> store = new LinkedHashMap<>();
        for (var e : keyBytes.entrySet()) {
            ModelValue k = new ModelValue(e.getKey());
            int index = indexOf(c, e.getValue());
            boolean cached = index >= 0;
            crec.put(k, cached ? specRecord(e.getKey(), cachedRecord(c, index)) : NO_REC);
            valid.put(k, cached && c.registerRead(CacheControlNames.RECORD_VALID, index).signum() != 0);
            latest.put(k, cached && c.registerRead(FarReachControlNames.RECORD_LATEST, index).signum() != 0);
            tbe.put(k, cached && c.registerRead(FarReachControlNames.RECORD_EVICTING, index).signum() != 0);
            ctr.put(k, specSeq(e.getKey(), c.registerRead(SequenceBase.SEQ_COUNTER, (int) slotOf(e.getValue())).longValue()));
            store.put(k, server.storedRecord(e.getValue()).map(r -> specRecord(e.getKey(), r)).orElse(SpecValues.rec(0, 0)));
        }
        Map<Object, Object> pres = new LinkedHashMap<>();
        Map<Object, Object> busy = new LinkedHashMap<>();
        for (String client : hostOfClient.keySet()) {
            Map<Object, Object> preserved = new LinkedHashMap<>();
            for (String k : keyBytes.keySet()) {
                preserved.put(new ModelValue(k), NO_REC);
            }
            for (FarReachClient.PreservedRecord p : clients.get(client).preservedRecords()) {
                String k = keyOfHex.get(hex(p.key()));
                preserved.put(new ModelValue(k), rec(p.deleted() ? 0 : SpecValues.writeIdOf(p.value()), specSeq(k, p.seq())));
            }
            pres.put(new ModelValue(client), new TlaFunction(preserved));
            busy.put(new ModelValue(client), clients.get(client).busy());
        }
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("crec", new TlaFunction(crec));
        state.put("valid", new TlaFunction(valid));
        state.put("latest", new TlaFunction(latest));
        state.put("tbe", new TlaFunction(tbe));
        state.put("ctr", new TlaFunction(ctr));
        state.put("store", new TlaFunction(store));
        // before pres: a wrong snapshot is reported as itself, not as the preserved records it released
        state.put("snapOn", c.registerRead(FarReachControlNames.SNAPSHOT_EPOCH, 0).signum() != 0);
        state.put("snap", snapOf(controller.lastSnapshot()));
        state.put("pres", new TlaFunction(pres));
        state.put("pend", new TlaFunction(busy));
        state.put("net", messages());
        return state;
    }

    /**
     * What the implementation can show of the spec's variables: {@code pend} only as whether each
     * client has an operation outstanding (the read floor is history, not client state), and {@code net}
     * without FIFO positions (the replayed models leave FifoSwitchServer off, so every position is 0).
     */
    @Override
    public Object projectSpec(String var, Object specValue) {
        return switch (var) {
            case "pend" -> {
                Map<Object, Object> busy = new LinkedHashMap<>();
                for (var e : ((TlaFunction) specValue).mapping().entrySet()) {
                    busy.put(e.getKey(), !"none".equals(asRecord(e.getValue()).get("t")));
                }
                yield new TlaFunction(busy);
            }
            case "net" -> {
                Set<Map<String, Object>> out = new LinkedHashSet<>();
                for (Object m : (Set<?>) specValue) {
                    Map<String, Object> copy = new LinkedHashMap<>(asRecord(m));
                    copy.remove("fs");
                    out.add(copy);
                }
                yield out;
            }
            default -> specValue;
        };
    }

    /** The controller's last completed snapshot as the spec's {@code snap}: a record per key it holds. */
    private TlaFunction snapOf(SnapshotCodec.Snapshot last) {
        Map<Object, Object> snap = new LinkedHashMap<>();
        for (String k : keyBytes.keySet()) {
            snap.put(new ModelValue(k), NO_REC);
        }
        if (last != null) {
            for (var r : last.records()) {
                String k = keyOfHex.get(r.keyHex());
                if (k == null) {
                    throw new ReplayException("the controller's snapshot holds a key no spec key maps to: " + r.keyHex());
                }
                snap.put(new ModelValue(k), specRecord(k, r.record()));
            }
        }
        return new TlaFunction(snap);
    }

    private static int indexOf(SwitchControl c, byte[] key) {
        return CacheRegisters.indexOf(c, key);
    }

    /** Read with the mapping's own code, not the controller's, so a bug there cannot hide itself. */
    private static StoredRecord cachedRecord(SwitchControl c, int index) {
        long seq = c.registerRead(CacheControlNames.RECORD_SEQ, index).longValue();
        if (c.registerRead(FarReachControlNames.RECORD_DELETED, index).signum() != 0) {
            return StoredRecord.tombstone(seq);
        }
        return StoredRecord.value(CacheRegisters.readValue(c, index), seq);
    }
}
