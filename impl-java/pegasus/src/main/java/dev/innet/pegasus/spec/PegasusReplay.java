package dev.innet.pegasus.spec;

import static dev.innet.pegasus.spec.ReplayParts.decode;
import static dev.innet.pegasus.spec.ReplayParts.describe;
import static dev.innet.pegasus.spec.ReplayParts.flag;
import static dev.innet.pegasus.spec.ReplayParts.serverSet;
import static dev.innet.pegasus.spec.ReplayParts.slotOf;
import static dev.innet.protocol.spec.TlaValues.asLong;
import static dev.innet.protocol.spec.TlaValues.asRecord;
import static dev.innet.protocol.spec.TlaValues.atInt;
import static dev.innet.protocol.spec.TlaValues.intDomain;
import static dev.innet.protocol.spec.TlaValues.intFunction;

import dev.innet.kv.KvStatus;
import dev.innet.kv.spec.WriteIds;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.kv.store.StoredRecord;
import dev.innet.pegasus.PegasusRack;
import dev.innet.pegasus.client.PegasusClient;
import dev.innet.pegasus.controller.PegasusController;
import dev.innet.pegasus.server.ClientTable;
import dev.innet.pegasus.server.PegasusServer;
import dev.innet.pegasus.spec.ReplayParts.Op;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.protocol.RackPorts;
import dev.innet.protocol.spec.ReplayContext;
import dev.innet.protocol.spec.ReplayNetwork;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecReplay;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * Pegasus.tla replayed on the implementation: p4/pegasus.p4 on the replay target, one
 * {@link PegasusServer} per spec server, a {@link PegasusClient} per spec operation (the spec gives
 * every operation its own client, S6.4's "most recent request") and the {@link PegasusController},
 * whose own procedures (switch recovery, AddKey, MarkRemove, VirtualWrite, ForgetRemoved) run to
 * completion inside the step of the spec action they implement. Issue 16's removal rewrite runs until the
 * switch has stamped its write (RemovalRewrite: pause, drain, reads of every copy, the write); the write is
 * then the spec's RW in flight, and the procedure ends when home's answer passes the switch
 * (SwitchRewriteReply). Every frame between the nodes is routed
 * by this class, so the spec's choice of which message is delivered, duplicated or lost next is followed
 * exactly (docs/conformance.md, "Pegasus").
 *
 * <p>Spec server s is rack index s - 1 on host s; spec key k is a 16-byte key whose consistent-hashing
 * home is server {@code (k % NServers) + 1}, MCPegasusBase's MCHome (every Pegasus model uses it; the
 * trace does not carry the constant). Write w's client sits on a host whose address makes the switch's
 * detector hash (crc32 of client address and request id, mod n) pick the spec's {@code Detector(w)}.
 *
 * <p>The spec leaves two choices to the switch's policy that the implementation makes from state the
 * spec does not have; the replay plays them by writing that state through the control API before the
 * request enters the switch: the replicas a write is forwarded to ({@code rep_factor} of the key: the
 * spec's {@code others} must be the next |others| servers after the detector, which every subset is
 * with two servers), and the member of {@code rset} a read goes to ({@code read_cursor} at that member,
 * its {@code server_load} 0).
 *
 * <p>The refinement mapping is {@link #observe}; docs/conformance.md has it as a table.
 */
public final class PegasusReplay implements SpecReplay {
    private static final int CONTROLLER = RackPorts.CONTROLLER_HOST;
    /** One control-plane step of the controller; the replay advances its clock by this much per step. */
    private static final long STEP_NANOS = 10_000;
    /** Far beyond any replay: the statistics period (policy decisions) never comes. */
    private static final long NEVER_NANOS = 1L << 50;
    /**
     * The controller's resend interval: far beyond any replay's control steps (every request of the
     * controller is answered in the step that sends it), so nothing is resent unless the replay advances
     * the clock by it, which it does for the spec's second RemovalRewrite of a key (the first went
     * unanswered: the controller's procedure then starts a new attempt).
     */
    private static final long RETRY_NANOS = 1_000_000_000L;
    /** High enough that the switch reports no key hot: additions are the spec's AddKey only. */
    private static final int NEVER_HOT = 1_000_000_000;
    /** Control steps a procedure may take before the replay calls the controller stuck. */
    private static final int MAX_CONTROL_STEPS = 64;
    /** A client's attempts: more than any model's retries, so a client never gives up on its own. */
    private static final int CLIENT_ATTEMPTS = 1_000;
    /** Every client's first (and only) operation carries request id 1 (incarnation 0, counter 1). */
    private static final long FIRST_REQUEST_ID = 1;

    private static final String VER_NEXT = "MyIngress.ver_next";
    private static final String KEY_STATE = "MyIngress.key_state";
    private static final String VER_COMPLETED = "MyIngress.ver_completed";
    private static final String MARK_VER = "MyIngress.mark_ver";
    private static final String RSET_BITMAP = "MyIngress.rset_bitmap";
    private static final String RSET_SIZE = "MyIngress.rset_size";
    private static final String RSET_LIST = "MyIngress.rset_list";
    private static final String READ_CURSOR = "MyIngress.read_cursor";
    private static final String REP_FACTOR = "MyIngress.rep_factor";
    private static final String SERVER_LOAD = "MyIngress.server_load";
    /** pegasus_sizes.p4 MAX_SERVERS: a slot's stretch of rset_list. */
    private static final int RSET_LIST_STRIDE = PegasusRack.MAX_SERVERS;
    private static final int KEY_ACTIVE = 1;
    private static final int KEY_MARKED = 2;

    /** Where a frame in flight is going. */
    private enum Route {
        /** Through the switch to a server (a forwarded request, a replica's copy, a virtual write). */
        TO_SERVER,
        /** A server's reply, not yet through the switch (the switch acts on it in the step that delivers it). */
        SERVER_TO_SWITCH
    }

    /** Builds a server the replay runs (tests substitute one with a seeded bug). */
    @FunctionalInterface
    public interface ServerFactory {
        PegasusServer create(PegasusRack rack, RecordStoreOpener stores);
    }

    /** Builds the controller the replay runs (tests substitute one with a seeded bug). */
    @FunctionalInterface
    public interface ControllerFactory {
        PegasusController create(PegasusController.Config config, SwitchHandle handle);
    }

    private final ReplayTarget target;
    private final ServerFactory serverFactory;
    private final ControllerFactory controllerFactory;
    private final SwitchHandle handle = new SwitchHandle();
    private final ReplayNetwork<Route> net = new ReplayNetwork<>();
    /** Spec key -> its 16 bytes, and back (by hex). */
    private final SortedMap<Long, byte[]> keyBytes = new TreeMap<>();
    private final Map<String, Long> keyOfHex = new HashMap<>();
    private final List<PegasusServer> servers = new ArrayList<>();
    private final List<ReplayContext> serverContexts = new ArrayList<>();
    /** Write id -> its client's host, and back; the same for reads. */
    private final SortedMap<Long, Integer> writeHost = new TreeMap<>();
    private final SortedMap<Long, Integer> readHost = new TreeMap<>();
    private final Map<Integer, Long> writeOfHost = new HashMap<>();
    private final Map<Integer, PegasusClient> clients = new HashMap<>();
    private final Map<Integer, ReplayContext> clientContexts = new HashMap<>();
    private final Map<Long, Op> writes = new HashMap<>();
    private final Map<Long, Op> reads = new HashMap<>();
    /** The spec's execs, as the servers' stores show it: write w stored under version v by some server. */
    private final Set<Object> executions = new LinkedHashSet<>();
    private PegasusRack rack;
    private PegasusController controller;
    private ReplayContext controllerContext;
    /** The spec key whose removal rewrite the controller's procedure is running (waiting for home's answer), or -1. */
    private long rewriteKey = -1;
    /** Whether the switch has stamped the controller's rewrite in the current RemovalRewrite step. */
    private boolean rewriteStamped;
    /** The version home's copy had when the controller read it (its flagged read's answer): the RW's exp. */
    private long homeVersionRead;

    public PegasusReplay(ReplayTarget target) {
        this(target, PegasusServer::new, PegasusController::new);
    }

    /**
     * @param servers the storage servers to replay (tests pass one with a seeded bug)
     * @param controllers the controller to replay (tests pass one with a seeded bug)
     */
    public PegasusReplay(ReplayTarget target, ServerFactory servers, ControllerFactory controllers) {
        this.target = target;
        this.serverFactory = servers;
        this.controllerFactory = controllers;
    }

    /**
     * The spec's actions this replay does not perform: the switch crash and its recovery (no conformance
     * model enables them: MaxSwitchCrash = 0). Every other action of Next is performed; some instances are
     * refused, see perform (and, for issue 16's removal rewrite, {@link #REWRITE_WAITING}).
     */
    static final Map<String, String> NOT_REPLAYABLE = Map.of(
            "SwitchCrash", "the switch crash is not replayed (no conformance model has MaxSwitchCrash > 0); "
                    + "PegasusCampaignTest crashes the simulated switch and checks the recovery's histories",
            "SwitchDownDrop", "only after a SwitchCrash, which is not replayed",
            "RecoverSwitch", "only after a SwitchCrash, which is not replayed; the replay's switch is brought up by "
                    + "controller.RecoverSwitch before the first step (its first start)");

    /**
     * Why a step is not replayed while the controller's removal rewrite waits for home's answer: the
     * implementation keeps the key's writes paused, and its procedure holds the controller, until the
     * rewrite is answered (or the removal has ended otherwise); the spec lifts the pause when the switch
     * stamps the rewrite, and its controller acts again at once.
     */
    private static final String REWRITE_WAITING = "the controller's removal rewrite of the key waits for home's "
            + "answer: the implementation keeps the key's writes paused and runs no other procedure until then; the "
            + "spec ends the pause when the switch stamps the rewrite";

    // ------------------------------------------------------------------ set-up

    /**
     * Servers are hosts 1..n, the clients the hosts after them (each write's chosen for its detector),
     * the controller the CPU port. The controller's own loop recovers the fresh switch (routes, server
     * addresses, ver_next, open), then adds the keys the spec starts replicated (InitRKeys) with its
     * AddKey procedure, before any version is stamped: rset = {home}, ver_completed = 0, as the spec's
     * Init has them.
     */
    @Override
    public void init(SpecStep initial) {
        int n = intDomain(initial.var("store")).size();
        List<Integer> serverHosts = new ArrayList<>();
        for (int s = 1; s <= n; s++) {
            serverHosts.add(s);
        }
        List<Long> keys = intDomain(initial.var("rset"));
        rack = new PegasusRack(serverHosts, CONTROLLER, NEVER_NANOS, CLIENT_ATTEMPTS, Math.max(1, keys.size()),
                2 * STEP_NANOS);
        for (long k : keys) {
            byte[] key = keyHomedAt(k, (int) (k % n) + 1);
            keyBytes.put(k, key);
            keyOfHex.put(hex(key), k);
        }
        Set<Integer> used = new java.util.HashSet<>(serverHosts);
        for (long w : intDomain(initial.var("wr"))) {
            int host = clientHostFor(used, h -> detectorIndex(h, n) == (int) ((w - 1) % n));
            writeHost.put(w, host);
            writeOfHost.put(host, w);
        }
        for (long r : intDomain(initial.var("rd"))) {
            readHost.put(r, clientHostFor(used, h -> true));
        }
        List<Integer> clientHosts = new ArrayList<>(writeHost.values());
        clientHosts.addAll(readHost.values());
        List<Integer> allHosts = new ArrayList<>(serverHosts);
        allHosts.addAll(clientHosts);
        allHosts.add(CONTROLLER);
        controllerContext = new ReplayContext(CONTROLLER, 1);
        controller = controllerFactory.create(new PegasusController.Config(rack, allHosts, clientHosts, NEVER_HOT,
                NEVER_NANOS, STEP_NANOS, RETRY_NANOS), handle);
        controller.onStart(controllerContext);
        for (int host : serverHosts) {
            ReplayContext ctx = new ReplayContext(host, 2);
            PegasusServer server = serverFactory.create(rack, RecordStoreOpener.memory());
            server.onStart(ctx);
            servers.add(server);
            serverContexts.add(ctx);
        }
        for (int host : clientHosts) {
            ReplayContext ctx = new ReplayContext(host, 3);
            clientContexts.put(host, ctx);
            clients.put(host, new PegasusClient(ctx, rack, null));
        }
        handle.attach(target.control());
        runController("Init");
        for (Object k : (Set<?>) initial.var("rkeys")) {
            commandThenRun("Init", () -> controller.commandAddKey(keyBytes.get(asLong(k))));
        }
    }

    /** A 16-byte key whose home (consistent hashing, S5) is server host {@code home}. */
    private byte[] keyHomedAt(long k, int home) {
        for (int i = 0; i < 10_000; i++) {
            byte[] key = InnetMessage.key("k" + k + "-" + i);
            if (rack.ring().ownerOf(key) == home) {
                return key;
            }
        }
        throw new NotReplayable("no key name homed at server " + home + " found for spec key " + k);
    }

    private static int clientHostFor(Set<Integer> used, java.util.function.IntPredicate fits) {
        for (int h = RackAddressing.MIN_HOST; h <= RackAddressing.MAX_HOST; h++) {
            if (h != RackPorts.CPU_PORT && !used.contains(h) && fits.test(h)) {
                used.add(h);
                return h;
            }
        }
        throw new NotReplayable("the rack has no free client host for this trace's operations");
    }

    /**
     * The server index p4/pegasus.p4 picks as the detector of a client's first request: crc32 over the
     * client's IPv4 address and the request id (each 32 bits, most significant first), mod n (§6.4).
     */
    static int detectorIndex(int clientHost, int n) {
        CRC32 crc = new CRC32();
        crc.update(ByteBuffer.allocate(8).putInt(RackAddressing.hostIp(clientHost)).putInt((int) FIRST_REQUEST_ID).array());
        return (int) (crc.getValue() % n);
    }

    // ------------------------------------------------------------------ the controller

    /**
     * Runs the controller's loop, a control step at a time, until it is idle with the switch open,
     * routing its traffic through the switch to the servers and back after every step.
     */
    private void runController(String action) {
        runControllerUntil(action, () -> controller.idle() && controller.switchOpen());
        rewriteKey = -1; // idle: no rewrite procedure is left
    }

    /** Runs the controller's loop, a control step at a time, until {@code done}. */
    private void runControllerUntil(String action, java.util.function.BooleanSupplier done) {
        for (int i = 0; i < MAX_CONTROL_STEPS; i++) {
            controllerContext.advance(STEP_NANOS);
            for (long timer : controllerContext.dueTimers()) {
                if (controllerContext.fire(timer)) {
                    controller.onTimer(timer);
                }
            }
            routeControlTraffic(action);
            if (done.getAsBoolean()) {
                return;
            }
        }
        throw new ReplayException(action + ": the controller did not finish within " + MAX_CONTROL_STEPS
                + " control steps");
    }

    private void commandThenRun(String action, Runnable command) {
        if (rewriteKey >= 0) {
            throw new NotReplayable(action + ": " + REWRITE_WAITING);
        }
        try {
            command.run();
        } catch (IllegalStateException e) {
            throw new ReplayException(action + ": the controller refused: " + e.getMessage());
        }
        runController(action);
    }

    /**
     * The controller's requests and packet-outs through the switch, the servers' answers back, until
     * nothing is left to route. A VIRTUAL_WRITE is the spec's VW message and the controller's removal
     * rewrite (a WRITE or DELETE) the spec's RW: they stay in flight.
     */
    private void routeControlTraffic(String action) {
        for (int round = 0; round < 100; round++) {
            boolean any = false;
            for (byte[] frame : controllerContext.takeSent()) {
                any = true;
                dispatchControl(action, target.inject(RackPorts.CPU_PORT, frame));
            }
            for (int i = 0; i < servers.size(); i++) {
                for (byte[] frame : serverContexts.get(i).takeSent()) {
                    any = true;
                    dispatchControl(action, target.inject(RackPorts.portOf(rack.hostOf(i)), frame));
                }
            }
            if (!any) {
                return;
            }
        }
        throw new ReplayException(action + ": the controller and the servers kept exchanging messages");
    }

    private void dispatchControl(String action, List<ReplayTarget.Emitted> out) {
        for (ReplayTarget.Emitted e : out) {
            if (e.port() == RackPorts.CPU_PORT) {
                noteHomeRead(decode(e.frame()));
                controller.onPacket(e.frame());
                continue;
            }
            int server = serverIndexOfPort(e.port());
            if (server < 0) {
                throw new ReplayException(action + ": control traffic left the switch on port " + e.port());
            }
            PegasusPacket p = decode(e.frame());
            if (p.message().op() == PegasusOp.WRITE || p.message().op() == PegasusOp.DELETE) {
                holdRewrite(p, server, e.frame());
            } else if (p.message().op() == PegasusOp.VIRTUAL_WRITE) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("t", "VW");
                m.put("key", keyOf(p));
                m.put("ver", p.message().seq());
                m.put("dst", (long) server + 1);
                m.put("fwd", serverSet(p.ext().fwd()));
                net.put(m, Route.TO_SERVER, e.frame());
            } else {
                servers.get(server).onPacket(e.frame());
            }
        }
    }

    /** An answer to the controller's flagged read from the key's home: its version is the rewrite's exp. */
    private void noteHomeRead(PegasusPacket p) {
        if (p.message().op() == PegasusOp.READ_REPLY
                && (p.ext().pflags() & dev.innet.pegasus.wire.PegasusExt.FLAG_CONTROLLER_READ) != 0) {
            long k = keyOf(p);
            if (RackAddressing.hostOfIp(p.frame().srcIp()) == rack.hostOf((int) (k % servers.size()))) {
                homeVersionRead = p.message().seq();
            }
        }
    }

    /**
     * The controller's rewrite as the switch stamped it: Pegasus.tla's RWReq (key, the stamped version, the
     * value of the copy written, 0 for a DELETE: the spec has no deletes, so no copy; exp, the version the
     * controller read at home; home).
     */
    private void holdRewrite(PegasusPacket p, int server, byte[] frame) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t", "RW");
        m.put("key", keyOf(p));
        m.put("ver", p.message().seq());
        m.put("val", p.message().op() == PegasusOp.DELETE ? 0L : valueOf(p));
        m.put("exp", homeVersionRead);
        m.put("dst", (long) server + 1);
        net.put(m, Route.TO_SERVER, frame);
        rewriteStamped = true;
    }

    private int serverIndexOfPort(int port) {
        for (int i = 0; i < rack.servers().size(); i++) {
            if (RackPorts.portOf(rack.hostOf(i)) == port) {
                return i;
            }
        }
        return -1;
    }

    // ------------------------------------------------------------------ actions

    @Override
    public void perform(SpecStep before, SpecStep step) {
        String a = step.actionName();
        switch (a) {
            case "IssueWrite" -> issue(before, step, true);
            case "RetryWrite" -> retry(before, step, writeHost.get(asLong(step.param("w"))), "WREQ", "w");
            case "IssueRead" -> issue(before, step, false);
            case "RetryRead" -> retry(before, step, readHost.get(asLong(step.param("r"))), "RREQ", "r");
            case "ServerWrite" -> serverWrite(step);
            case "ServerRead" -> serverRead(step);
            case "ServerVirtualWrite" -> serverVirtualWrite(step);
            case "SwitchWriteReply" -> switchReply(before, step, true);
            case "SwitchReadReply" -> switchReply(before, step, false);
            case "SwitchDropUnvouched" -> dropUnvouched(step);
            case "AddKey" -> commandThenRun(a, () -> controller.commandAddKey(specKey(step)));
            case "MarkRemove" -> commandThenRun(a, () -> controller.commandMarkRemove(specKey(step)));
            case "VirtualWrite" -> virtualWrite(before, step);
            case "RemovalRewrite" -> removalRewrite(step);
            case "ServerRewrite" -> serverRewrite(step);
            case "SwitchRewriteReply" -> switchRewriteReply(step);
            case "Lose" -> net.lose(asRecord(step.param("m")));
            default -> throw new NotReplayable(a + ": " + NOT_REPLAYABLE.getOrDefault(a, "not an action of Pegasus.tla"));
        }
    }

    private byte[] specKey(SpecStep step) {
        return keyBytes.get(asLong(step.param("key")));
    }

    /**
     * IssueWrite / IssueRead: the operation's client puts value w (or gets) through the switch, whose
     * Algorithm 1 stamps and routes it.
     */
    private void issue(SpecStep before, SpecStep step, boolean write) {
        String idField = write ? "w" : "r";
        long id = asLong(step.param(idField));
        long k = asLong(step.param("key"));
        int host = (write ? writeHost : readHost).get(id);
        Op op = new Op(k);
        (write ? writes : reads).put(id, op);
        if (write) {
            clients.get(host).put(keyBytes.get(k), WriteIds.valueOf(id), r -> op.completed(r, true));
        } else {
            clients.get(host).get(keyBytes.get(k), r -> op.completed(r, false));
        }
        sendThroughSwitch(step, host, newRequest(before, step, write ? "WREQ" : "RREQ", idField, id));
    }

    /** RetryWrite / RetryRead: the client's timer fires and it resends with the same request id. */
    private void retry(SpecStep before, SpecStep step, int host, String type, String idField) {
        ReplayContext ctx = clientContexts.get(host);
        PegasusClient client = clients.get(host);
        if (!client.busy()) {
            throw new ReplayException(step.actionName() + ": the client on host " + host + " has nothing outstanding");
        }
        for (long timer : ctx.pendingTimers()) {
            if (ctx.fire(timer)) {
                client.onTimer(timer);
            }
        }
        sendThroughSwitch(step, host, newRequest(before, step, type, idField, asLong(step.param(idField))));
    }

    /**
     * The request message the step adds to the spec's network (the one the switch must emit). The
     * network is a set: a resent read identical to one still in flight adds nothing, and is then that
     * message (with several such in flight the spec state does not say which; each gives the same state).
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> newRequest(SpecStep before, SpecStep step, String type, String idField, long id) {
        Set<Object> old = (Set<Object>) before.var("net");
        Map<String, Object> already = null;
        for (Object o : (Set<Object>) step.var("net")) {
            Map<String, Object> m = asRecord(o);
            if (type.equals(m.get("t")) && Long.valueOf(id).equals(m.get(idField))) {
                if (!old.contains(o)) {
                    return m;
                }
                already = already == null ? m : already;
            }
        }
        if (already != null) {
            return already;
        }
        throw new ReplayException(step.actionName() + ": the spec step adds no " + type + " of " + idField + " " + id);
    }

    /**
     * The client's one frame into the switch. Before it, the policy state the spec's choice stands for is
     * set (a write's replica count, a read's member of rset); after it, the switch must have emitted
     * exactly one frame, towards a server, which is the request in flight.
     */
    private void sendThroughSwitch(SpecStep step, int host, Map<String, Object> wanted) {
        List<byte[]> sent = clientContexts.get(host).takeSent();
        if (sent.size() != 1) {
            throw new ReplayException(step.actionName() + ": the client sent " + sent.size() + " frames, the spec one request");
        }
        if ("WREQ".equals(wanted.get("t"))) {
            if (Boolean.FALSE.equals(wanted.get("det"))) {
                throw new NotReplayable(step.actionName() + ": at-most-once is off in this model (EnableAtMostOnce = FALSE), "
                        + "the implementation always runs S6.4's detector and client tables");
            }
            chooseReplicas(step, wanted);
        } else {
            chooseReadTarget(step, wanted);
        }
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(host), sent.get(0));
        if (out.isEmpty() && "WREQ".equals(wanted.get("t")) && rewriteKey == asLong(wanted.get("key"))) {
            throw new NotReplayable(step.actionName() + ": the switch dropped the client's write (paused): "
                    + REWRITE_WAITING);
        }
        if (out.size() != 1 || serverIndexOfPort(out.get(0).port()) < 0) {
            throw new ReplayException(step.actionName() + ": the switch emitted " + describe(out)
                    + ", the spec one request to a server");
        }
        net.put(requestMessage(out.get(0), wanted), Route.TO_SERVER, out.get(0).frame());
    }

    /**
     * The spec's WREQ/RREQ as the frame the switch emitted shows it; the id is the operation's (the replay
     * knows which client it injected), everything else comes from the frame.
     */
    private Map<String, Object> requestMessage(ReplayTarget.Emitted e, Map<String, Object> wanted) {
        PegasusPacket p = decode(e.frame());
        long dst = serverIndexOfPort(e.port()) + 1;
        Map<String, Object> m = new LinkedHashMap<>();
        if ("WREQ".equals(wanted.get("t"))) {
            m.put("t", "WREQ");
            m.put("w", wanted.get("w"));
            m.put("val", valueOf(p));
            m.put("key", keyOf(p));
            m.put("ver", p.message().seq());
            m.put("dst", dst);
            m.put("det", p.ext().detector());
            m.put("fwd", serverSet(p.ext().fwd()));
        } else {
            m.put("t", "RREQ");
            m.put("r", wanted.get("r"));
            m.put("key", keyOf(p));
            m.put("dst", dst);
        }
        return m;
    }

    /**
     * The spec's {@code others} for a replicated key's write: the switch forwards to the next
     * rep_factor - 1 servers after the detector, so the replay sets the key's rep_factor to |others| + 1
     * (the controller's S6.5 policy sets it each period from reads per write). Only for a key the
     * switch's directory has active; others go home, where rep_factor is not read.
     */
    @SuppressWarnings("unchecked")
    private void chooseReplicas(SpecStep step, Map<String, Object> wanted) {
        long k = asLong(wanted.get("key"));
        SwitchControl c = target.control();
        int slot = slotOf(c, keyBytes.get(k));
        if (slot < 0 || c.registerRead(KEY_STATE, slot).intValue() != KEY_ACTIVE) {
            return;
        }
        int n = servers.size();
        int detector = (int) asLong(wanted.get("dst")) - 1;
        Set<Object> others = (Set<Object>) wanted.get("fwd");
        for (int i = 1; i <= others.size(); i++) {
            if (!others.contains((long) ((detector + i) % n) + 1)) {
                throw new NotReplayable(step.actionName() + ": the spec forwards to " + others + ", which are not the "
                        + others.size() + " servers after the detector " + (detector + 1)
                        + " (the switch forwards to the next rep_factor - 1 servers)");
            }
        }
        c.registerWrite(REP_FACTOR, slot, BigInteger.valueOf(others.size() + 1));
    }

    /**
     * The spec's member of rset for a read of a key in the directory: the switch reads the less loaded of
     * the two members at the key's round-robin cursor, so the replay points the cursor at the member and
     * zeroes its load (loads otherwise come from reply headers, S4.4).
     */
    private void chooseReadTarget(SpecStep step, Map<String, Object> wanted) {
        long k = asLong(wanted.get("key"));
        SwitchControl c = target.control();
        int slot = slotOf(c, keyBytes.get(k));
        if (slot < 0 || c.registerRead(KEY_STATE, slot).intValue() == 0) {
            return;
        }
        int member = (int) asLong(wanted.get("dst")) - 1;
        int size = c.registerRead(RSET_SIZE, slot).intValue();
        for (int pos = 0; pos < size; pos++) {
            if (c.registerRead(RSET_LIST, slot * RSET_LIST_STRIDE + pos).intValue() == member) {
                c.registerWrite(READ_CURSOR, slot, BigInteger.valueOf(pos));
                c.registerWrite(SERVER_LOAD, member, BigInteger.ZERO);
                return;
            }
        }
        throw new ReplayException(step.actionName() + ": server " + (member + 1) + " is not in the switch's replica list of key " + k);
    }

    /**
     * ServerWrite: the WREQ is handed to its server (a client's write to its detector, or a replica's copy,
     * which the implementation sends as REPLICATE). Its copies to the listed replicas pass the switch and
     * are in flight; its reply waits before the switch.
     */
    private void serverWrite(SpecStep step) {
        Map<String, Object> m = asRecord(step.param("m"));
        long k = asLong(m.get("key"));
        long w = asLong(m.get("w"));
        int server = (int) asLong(m.get("dst")) - 1;
        long storedBefore = storedVersion(server, k);
        deliverToServer(step);
        long storedAfter = storedVersion(server, k);
        if (w != 0 && storedAfter != storedBefore) {
            executions.add(List.of(w, storedAfter));
        }
        routeServerOutput(step, server, w);
    }

    /** ServerRead: the RREQ is handed to its server; the reply waits before the switch. */
    private void serverRead(SpecStep step) {
        Map<String, Object> m = asRecord(step.param("m"));
        int server = deliverToServer(step);
        List<byte[]> sent = serverContexts.get(server).takeSent();
        if (sent.size() != 1) {
            throw new ReplayException("ServerRead: the server sent " + sent.size() + " frames, the spec one reply");
        }
        PegasusPacket p = decode(sent.get(0));
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("t", "RREP");
        reply.put("r", m.get("r"));
        reply.put("key", keyOf(p));
        reply.put("val", p.message().status() == KvStatus.OK ? valueOf(p) : 0L);
        reply.put("ver", p.message().seq());
        reply.put("src", (long) p.ext().server());
        net.put(reply, Route.SERVER_TO_SWITCH, sent.get(0));
    }

    /** ServerVirtualWrite: home gets the VW, raises its version, copies its value to fwd and replies. */
    private void serverVirtualWrite(SpecStep step) {
        routeServerOutput(step, deliverToServer(step), 0);
    }

    /** The step's message {@code m} leaves the network (or a copy of it, with {@code dup}) for its server. */
    private int deliverToServer(SpecStep step) {
        Map<String, Object> m = asRecord(step.param("m"));
        int server = (int) asLong(m.get("dst")) - 1;
        servers.get(server).onPacket(net.take(step.actionName(), Route.TO_SERVER, m, flag(step, "dup")).frame());
        return server;
    }

    /**
     * What a server sent while handling a write or virtual write: its copies (REPLICATE) go through the
     * switch, which must pass each to its server, and are the spec's WREQs with det FALSE; its reply is
     * the spec's WREP of the same write id, in flight before the switch.
     */
    private void routeServerOutput(SpecStep step, int server, long w) {
        for (byte[] frame : serverContexts.get(server).takeSent()) {
            PegasusPacket p = decode(frame);
            if (p.message().op() == PegasusOp.REPLICATE) {
                List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(rack.hostOf(server)), frame);
                if (out.size() != 1 || serverIndexOfPort(out.get(0).port()) < 0) {
                    throw new ReplayException(step.actionName() + ": the switch emitted " + describe(out)
                            + " for a replica's copy, the spec one copy to a server");
                }
                Map<String, Object> copy = new LinkedHashMap<>();
                copy.put("t", "WREQ");
                copy.put("w", w);
                copy.put("val", (p.message().flags() & PegasusOp.FLAG_DELETED) != 0 ? 0L : valueOf(p));
                copy.put("key", keyOf(p));
                copy.put("ver", p.message().seq());
                copy.put("dst", (long) serverIndexOfPort(out.get(0).port()) + 1);
                copy.put("det", false);
                copy.put("fwd", Set.of());
                net.put(copy, Route.TO_SERVER, out.get(0).frame());
            } else if (p.message().isReply()) {
                Map<String, Object> reply = new LinkedHashMap<>();
                reply.put("t", "WREP");
                reply.put("w", w);
                reply.put("key", keyOf(p));
                reply.put("ver", p.message().seq());
                reply.put("src", (long) p.ext().server());
                net.put(reply, Route.SERVER_TO_SWITCH, frame);
            } else {
                throw new ReplayException(step.actionName() + ": the server sent op " + p.message().op()
                        + ", which is no message of the spec");
            }
        }
    }

    /**
     * SwitchWriteReply / SwitchReadReply: the reply passes the switch (Algorithm 2, the removal rule) and
     * goes on to whoever the request came from: a client's reply reaches it unless the spec loses it
     * ({@code lost}); a replica's reply to a copy goes back to the detector (or, for a virtual write's
     * copy, home), which ignores it; the virtual write's reply goes to the controller. A removal's
     * KEY_REMOVED report goes to the controller, whose ForgetRemoved runs in the same step (the spec
     * removes the key atomically).
     */
    @SuppressWarnings("unchecked")
    private void switchReply(SpecStep before, SpecStep step, boolean write) {
        Map<String, Object> m = asRecord(step.param("m"));
        ReplayNetwork.Flight<Route> f = net.take(step.actionName(), Route.SERVER_TO_SWITCH, m, flag(step, "dup"));
        PegasusPacket reply = decode(f.frame());
        int fromHost = RackAddressing.hostOfIp(reply.frame().srcIp());
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(fromHost), f.frame());
        long id = asLong(m.get(write ? "w" : "r"));
        int clientHost = id == 0 ? -1 : (write ? writeHost : readHost).get(id);
        boolean reachedClient = false;
        boolean removed = false;
        for (ReplayTarget.Emitted e : out) {
            PegasusPacket p = decode(e.frame());
            if (e.port() == RackPorts.CPU_PORT) {
                removed |= p.message().op() == PegasusOp.KEY_REMOVED;
                controller.onPacket(e.frame());
            } else if (clientHost > 0 && e.port() == RackPorts.portOf(clientHost)) {
                reachedClient = true;
                if (!flag(step, "lost")) {
                    clients.get(clientHost).onPacket(e.frame());
                }
            } else if (serverIndexOfPort(e.port()) >= 0) {
                servers.get(serverIndexOfPort(e.port())).onPacket(e.frame());
                if (!serverContexts.get(serverIndexOfPort(e.port())).takeSent().isEmpty()) {
                    throw new ReplayException(step.actionName() + ": a server answered a reply");
                }
            } else {
                throw new ReplayException(step.actionName() + ": the switch sent the reply to port " + e.port());
            }
        }
        if (out.isEmpty()) {
            throw new ReplayException(step.actionName() + ": the switch dropped the reply; the spec passes it on");
        }
        String var = write ? "wr" : "rd";
        boolean specCompletes = id != 0 && "pend".equals(asRecord(atInt(before.var(var), id)).get("st"))
                && "done".equals(asRecord(atInt(step.var(var), id)).get("st"));
        if (specCompletes && !reachedClient) {
            throw new NotReplayable(step.actionName() + ": in the spec a replica's reply to a forwarded copy completes "
                    + "the client's write; the implementation returns it to the detector, and the client waits for the "
                    + "detector's own reply");
        }
        if (removed) {
            runController(step.actionName());
        }
    }

    /** SwitchDropUnvouched: a reply naming no server, above ver_completed, must not leave the switch. */
    private void dropUnvouched(SpecStep step) {
        Map<String, Object> m = asRecord(step.param("m"));
        ReplayNetwork.Flight<Route> f = net.take("SwitchDropUnvouched", Route.SERVER_TO_SWITCH, m, flag(step, "dup"));
        int fromHost = RackAddressing.hostOfIp(decode(f.frame()).frame().srcIp());
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(fromHost), f.frame());
        if (!out.isEmpty()) {
            throw new ReplayException("SwitchDropUnvouched: the switch passed the unvouched reply on: " + describe(out));
        }
    }

    /**
     * VirtualWrite: the controller's procedure (pause, drain, checks, VIRTUAL_WRITE to home). The
     * implementation copies to exactly the servers outside rset, the spec to any non-empty set of
     * servers other than home: another choice is refused as not replayable.
     */
    @SuppressWarnings("unchecked")
    private void virtualWrite(SpecStep before, SpecStep step) {
        if (rewriteKey >= 0) {
            throw new NotReplayable("VirtualWrite: " + REWRITE_WAITING);
        }
        byte[] key = specKey(step);
        Set<Object> wanted = (Set<Object>) newRequest(before, step, "VW", "key", asLong(step.param("key"))).get("fwd");
        SwitchControl c = target.control();
        int slot = slotOf(c, key);
        long outside = slot < 0 ? 0 : ((1L << servers.size()) - 1) & ~c.registerRead(RSET_BITMAP, slot).longValue();
        if (!serverSet(outside).equals(wanted)) {
            throw new NotReplayable("VirtualWrite: the spec copies to " + wanted + "; the controller copies to the servers "
                    + "outside rset, " + serverSet(outside));
        }
        commandThenRun("VirtualWrite", () -> controller.commandVirtualWrite(key));
    }

    // ------------------------------------------------------------------ issue 16's removal rewrite

    /**
     * RemovalRewrite: the controller's procedure (controller.RemovalRewrite) ends the key's removal now:
     * it pauses the key's writes, waits the drain time, reads every server's copy through the switch
     * (P-21; the answers, flagged, pass without Algorithm 2, P-22) and sends the newest as a WRITE from
     * the CPU port, which the switch stamps with ver_next and sends home. That frame is the spec's RW;
     * the step ends there, the procedure waiting for home's answer. A second RemovalRewrite of the key
     * (the spec lost the first's RW or RWREP) is the procedure's next attempt, which it starts when its
     * resend interval has passed without an answer: the replay advances its clock by that much.
     */
    private void removalRewrite(SpecStep step) {
        long k = asLong(step.param("key"));
        if (rewriteKey == k) {
            controllerContext.advance(RETRY_NANOS);
        } else if (rewriteKey >= 0) {
            throw new NotReplayable("RemovalRewrite: " + REWRITE_WAITING);
        } else {
            try {
                controller.commandEndRemoval(keyBytes.get(k));
            } catch (IllegalStateException e) {
                throw new ReplayException("RemovalRewrite: the controller refused: " + e.getMessage());
            }
        }
        rewriteKey = k;
        rewriteStamped = false;
        homeVersionRead = 0;
        runControllerUntil("RemovalRewrite", () -> rewriteStamped);
    }

    /**
     * ServerRewrite: home handles the controller's WRITE as its detector (a request of the controller's own
     * client id): applied if higher. The spec's home applies it only if it still holds exp, and answers
     * only one it applied; the implementation answers every copy, one it ran before from its client
     * table. That answer is the spec's RWREP when home applied the rewrite, or when it is the same message
     * as one still in flight (the spec's network is a set); otherwise (a copy answered after the first
     * answer was taken) it has no spec counterpart and the behaviour is not replayed from there.
     */
    private void serverRewrite(SpecStep step) {
        Map<String, Object> m = asRecord(step.param("m"));
        int server = (int) asLong(m.get("dst")) - 1;
        long k = asLong(m.get("key"));
        long before = storedVersion(server, k);
        servers.get(server).onPacket(net.take("ServerRewrite", Route.TO_SERVER, m, flag(step, "dup")).frame());
        boolean applied = storedVersion(server, k) != before;
        ReplayParts.rewriteAnswers(serverContexts.get(server).takeSent(), applied, p -> {
            Map<String, Object> reply = new LinkedHashMap<>();
            reply.put("t", "RWREP");
            reply.put("key", keyOf(p));
            reply.put("ver", p.message().seq());
            reply.put("src", (long) p.ext().server());
            return reply;
        }, net, Route.SERVER_TO_SWITCH);
    }

    /**
     * SwitchRewriteReply: home's answer passes the switch (the removal rule, or Algorithm 2) to the
     * controller; a removal's KEY_REMOVED report too. The controller's procedure ends (writes resume), and
     * ForgetRemoved runs, in the same step.
     */
    private void switchRewriteReply(SpecStep step) {
        Map<String, Object> m = asRecord(step.param("m"));
        ReplayNetwork.Flight<Route> f = net.take("SwitchRewriteReply", Route.SERVER_TO_SWITCH, m, flag(step, "dup"));
        int fromHost = RackAddressing.hostOfIp(decode(f.frame()).frame().srcIp());
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(fromHost), f.frame());
        boolean answered = false;
        for (ReplayTarget.Emitted e : out) {
            if (e.port() != RackPorts.CPU_PORT) {
                throw new ReplayException("SwitchRewriteReply: the switch sent the rewrite's answer to port " + e.port());
            }
            answered |= decode(e.frame()).message().isReply();
            controller.onPacket(e.frame());
        }
        if (!answered) {
            throw new ReplayException("SwitchRewriteReply: the answer did not reach the controller: " + describe(out));
        }
        runController("SwitchRewriteReply");
    }

    // ------------------------------------------------------------------ frames

    private long keyOf(PegasusPacket p) {
        Long k = keyOfHex.get(hex(p.message().key()));
        if (k == null) {
            throw new ReplayException("a message carries key " + hex(p.message().key()) + ", no key of the trace");
        }
        return k;
    }

    private static long valueOf(PegasusPacket p) {
        return WriteIds.writeIdOf(p.message().value());
    }

    private static String hex(byte[] key) {
        return java.util.HexFormat.of().formatHex(key);
    }

    private long storedVersion(int server, long k) {
        return servers.get(server).storedRecord(keyBytes.get(k)).map(StoredRecord::seq).orElse(0L);
    }

    // ------------------------------------------------------------------ the refinement mapping

    /**
     * The implementation's state as spec values: the switch's directory (rkeys entry and slot state,
     * rset bitmap, ver_completed, mark_ver, ver_next; read through the control API), every server's
     * store and client table, the frames in flight, what each client library reported, and the
     * executions the servers' stores showed. Not compared: the budgets ({@code used}), the history
     * variable {@code extVer} and {@code act}.
     */
    @Override
    public Map<String, Object> observe() {
        SwitchControl c = target.control();
        long next = c.registerRead(VER_NEXT, 0).longValue();
        Set<Object> rkeys = new LinkedHashSet<>();
        SortedMap<Long, Object> rset = new TreeMap<>();
        SortedMap<Long, Object> verCompleted = new TreeMap<>();
        SortedMap<Long, Object> markVer = new TreeMap<>();
        for (var e : keyBytes.entrySet()) {
            long k = e.getKey();
            int slot = slotOf(c, e.getValue());
            int state = slot < 0 ? 0 : c.registerRead(KEY_STATE, slot).intValue();
            boolean replicated = state == KEY_ACTIVE || state == KEY_MARKED;
            if (replicated) {
                rkeys.add(k);
            }
            rset.put(k, replicated ? serverSet(c.registerRead(RSET_BITMAP, slot).longValue()) : Set.of());
            verCompleted.put(k, replicated ? c.registerRead(VER_COMPLETED, slot).longValue() : 0L);
            markVer.put(k, replicated ? c.registerRead(MARK_VER, slot).longValue() : 0L);
        }
        SortedMap<Long, Object> store = new TreeMap<>();
        SortedMap<Long, Object> ctab = new TreeMap<>();
        for (int i = 0; i < servers.size(); i++) {
            SortedMap<Long, Object> perKey = new TreeMap<>();
            Set<Object> table = new LinkedHashSet<>();
            ClientTable clientTable = new ClientTable(serverContexts.get(i).durable());
            for (var e : keyBytes.entrySet()) {
                StoredRecord r = servers.get(i).storedRecord(e.getValue()).orElse(null);
                Map<String, Object> rec = new LinkedHashMap<>();
                rec.put("val", r == null || r.deleted() ? 0L : WriteIds.writeIdOf(r.value()));
                rec.put("ver", r == null ? 0L : r.seq());
                perKey.put(e.getKey(), rec);
                for (ClientTable.Entry entry : clientTable.entriesFor(e.getValue())) {
                    if (RackAddressing.hostOfIp(entry.clientIp()) == CONTROLLER) {
                        continue; // the controller's rewrite: no client's write, not in the spec's ctab
                    }
                    Long w = writeOfHost.get(RackAddressing.hostOfIp(entry.clientIp()));
                    table.add(List.of(w == null ? -1L : w, entry.version()));
                }
            }
            store.put((long) i + 1, intFunction(perKey));
            ctab.put((long) i + 1, table);
        }
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("verNext", next == 0 ? 1L : next);
        state.put("rkeys", rkeys);
        state.put("rset", intFunction(rset));
        state.put("verCompleted", intFunction(verCompleted));
        state.put("markVer", intFunction(markVer));
        state.put("store", intFunction(store));
        state.put("ctab", intFunction(ctab));
        state.put("net", net.messages());
        state.put("wr", intFunction(operations(writeHost.keySet(), writes, true)));
        state.put("rd", intFunction(operations(readHost.keySet(), reads, false)));
        state.put("execs", new LinkedHashSet<>(executions));
        return state;
    }

    private static SortedMap<Long, Object> operations(Set<Long> ids, Map<Long, Op> ops, boolean write) {
        SortedMap<Long, Object> out = new TreeMap<>();
        for (long id : ids) {
            Op op = ops.get(id);
            out.put(id, op == null ? Map.of("st", "idle") : clientView(op.status, op.key, op.version, op.value, write));
        }
        return out;
    }

    /**
     * What a client can show of an operation: idle; pending on its key; done with the version (and for
     * a read the value) the reply carried. The spec's floor is history (the real-time order the
     * linearizability check uses), not client state.
     */
    private static Map<String, Object> clientView(String status, long key, long version, long value, boolean write) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("st", status);
        if ("idle".equals(status)) {
            return out;
        }
        out.put("key", key);
        if ("done".equals(status)) {
            out.put("ver", version);
            if (!write) {
                out.put("val", value);
            }
        }
        return out;
    }

    @Override
    public Object projectSpec(String var, Object specValue) {
        if (!var.equals("wr") && !var.equals("rd")) {
            return specValue;
        }
        SortedMap<Long, Object> out = new TreeMap<>();
        for (long id : intDomain(specValue)) {
            Map<String, Object> r = asRecord(atInt(specValue, id));
            boolean write = var.equals("wr");
            out.put(id, clientView((String) r.get("st"), asLong(r.get("key")), asLong(r.get("ver")),
                    write ? 0 : asLong(r.get("val")), write));
        }
        return intFunction(out);
    }
}
