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
import dev.innet.pegasus.chain.ChainConfigService;
import dev.innet.pegasus.chain.ChainNetwork;
import dev.innet.pegasus.chain.ChainPlacement;
import dev.innet.pegasus.chain.ChainRackController;
import dev.innet.pegasus.chain.ChainRole;
import dev.innet.pegasus.chain.ChainView;
import dev.innet.pegasus.chain.PegasusChainClient;
import dev.innet.pegasus.controller.PegasusController;
import dev.innet.pegasus.monitor.AtMostOnceMonitor;
import dev.innet.pegasus.server.ClientTable;
import dev.innet.pegasus.server.PegasusServer;
import dev.innet.pegasus.spec.ReplayParts.Op;
import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.protocol.RackPorts;
import dev.innet.protocol.RackSpec;
import dev.innet.protocol.Topology;
import dev.innet.protocol.spec.ReplayContext;
import dev.innet.protocol.spec.ReplayNetwork;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecReplay;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * PegasusChain.tla (§7) replayed on the implementation: one p4/pegasus.p4 switch per rack and a core
 * switch between them and the clients (each on its own replay target), {@link PegasusServer}s with their
 * {@link ChainRole}, one {@link PegasusChainClient} per spec operation, and each rack's
 * {@link ChainRackController}, whose switch recovery brings its switch up (routes, the rack gate, ver_next,
 * open) before the first step; the core is programmed as the configuration service does it. Every frame
 * is routed by this class through every switch on its way, so the spec's choice of which message is
 * delivered, duplicated or lost next is followed exactly, and a frame passing a switch that is not its
 * rack's must come out unchanged on the way on (the rack gate, P-19).
 *
 * <p>Spec rack r is {@code rack<r>}; its server s is host {@code (r - 1) * NServers + s}. The spec's key
 * is one whose chain starts at rack 1 and whose home in every rack is the rack's first server (the spec's
 * {@code Home}). Write w writes value w. The spec's {@code hv} (the head switch's stamp, a ghost) is kept by
 * the replay with each message, as the spec keeps it.
 *
 * <p>Not replayed: models with {@code Replicated = TRUE} (the spec sends a write to any set of a rack's
 * servers, each passing it down the chain; the implementation sends it to one detector, whose copies stay
 * in the rack), and a write a server executes twice under two versions (the spec has no at-most-once;
 * the implementation's detector answers the second copy with the version it recorded).
 */
public final class PegasusChainReplay implements SpecReplay {
    private static final long STEP_NANOS = 10_000;
    private static final long NEVER_NANOS = 1L << 50;
    /**
     * The rack controllers' resend interval: beyond any replay's control steps (their requests are answered
     * in the step that sends them), so nothing is resent unless the replay advances a controller's clock by
     * it, as it does for the spec's second RemovalRewriteAtTail (the first went unanswered: the procedure
     * then starts a new attempt).
     */
    private static final long RETRY_NANOS = 1_000_000_000L;
    private static final int NEVER_HOT = 1_000_000_000;
    private static final int MAX_CONTROL_STEPS = 64;
    private static final int CLIENT_ATTEMPTS = 1_000;

    private static final String VER_NEXT = "MyIngress.ver_next";
    private static final String KEY_STATE = "MyIngress.key_state";
    private static final String VER_COMPLETED = "MyIngress.ver_completed";
    private static final String RSET_BITMAP = "MyIngress.rset_bitmap";
    private static final String MARK_VER = "MyIngress.mark_ver";
    private static final String SWITCH_OPEN = "MyIngress.switch_open";
    private static final int KEY_MARKED = 2;
    /** The configuration service's timing in the replay: probes, silence before a removal, drain, resends. */
    private static final ChainConfigService.Settings SERVICE = new ChainConfigService.Settings(100_000, 400_000,
            200_000, 100_000);
    private static final int MAX_SERVICE_PERIODS = 64;
    /** Announcement periods Reconfigure waits, once the service has removed the rack, for nodes that have not adopted it. */
    private static final int SETTLE_PERIODS = 4;
    /** A switch's or a server's state a rack failure took (the spec keeps a failed rack's variables as they were). */
    static final String LOST_WITH_RACK = "lost with its rack";

    /** Where a frame in flight is: before a rack's switch (from the core), before a server, or a server's reply before its switch. */
    private enum Route {
        TO_RACK_SWITCH,
        TO_SERVER,
        SERVER_TO_SWITCH
    }

    /** Builds a server the replay runs (tests substitute one with a seeded bug). */
    @FunctionalInterface
    public interface ServerFactory {
        PegasusServer create(PegasusRack rack, RecordStoreOpener opener, AtMostOnceMonitor monitor, ChainRole role);
    }

    /** Builds a rack's controller the replay runs (tests substitute one with a seeded bug). */
    @FunctionalInterface
    public interface ControllerFactory {
        ChainRackController create(PegasusController.Config config, SwitchHandle handle, int rack, ChainPlacement placement);
    }

    private final ReplayTarget firstTarget;
    private final ServerFactory serverFactory;
    private final ControllerFactory controllerFactory;
    private final ReplayNetwork<Route> net = new ReplayNetwork<>();
    private final Map<Integer, ReplayTarget> rackSwitches = new TreeMap<>();
    private ReplayTarget core;
    private int racks;
    private int perRack;
    private ChainPlacement placement;
    private Topology topology;
    private byte[] key;
    /** Writes of keys the tail rack heads (TailStampsOther), sent by a host standing for their client. */
    private long otherRequests;
    private static final int OTHER_CLIENT = 99;
    private final Map<Integer, PegasusServer> servers = new TreeMap<>();
    private final Map<Integer, ReplayContext> serverContexts = new TreeMap<>();
    private final Map<Integer, ChainRole> roles = new TreeMap<>();
    private final Map<Integer, ChainRackController> controllers = new TreeMap<>();
    private final Map<Integer, ReplayContext> controllerContexts = new TreeMap<>();
    private final SortedMap<Long, Integer> writeHost = new TreeMap<>();
    private final SortedMap<Long, Integer> readHost = new TreeMap<>();
    private final Map<Integer, PegasusChainClient> clients = new TreeMap<>();
    private final Map<Integer, ReplayContext> clientContexts = new TreeMap<>();
    private final Map<Long, Op> writes = new TreeMap<>();
    private final Map<Long, Op> reads = new TreeMap<>();
    /** The spec's execs: write w applied at a tail server under version v. */
    private final Set<Object> executions = new LinkedHashSet<>();
    /** The spec's detExecs: {@code <<rack, w, version>>} a detector executed (not answered from its client table). */
    private final Set<Object> detectorExecutions = new LinkedHashSet<>();
    /**
     * Whether the spec runs §6.4's detectors (EnableAtMostOnce): known from the first step whose client tables
     * ({@code ctab}) are not empty; from then on {@code ctab} and {@code detExecs} are compared. The
     * implementation always runs them; a model without them keeps both empty.
     */
    private boolean specDetects;
    /** The variables the trace has (curated traces of an earlier spec lack the later ones). */
    private final Set<String> traceVariables = new LinkedHashSet<>();
    /** The configuration service (§7), on the core's CPU port, and its context. */
    private ChainConfigService service;
    private ReplayContext serviceContext;
    /** The rack whose controller's removal rewrite waits for home's answer (issue 16), or -1. */
    private int rewriteRack = -1;
    /** Whether the tail's switch has stamped the controller's rewrite in the current RemovalRewriteAtTail step. */
    private boolean rewriteStamped;
    /** The version home's copy had when the controller read it (its flagged read's answer): the RW's exp. */
    private long homeVersionRead;

    /**
     * Why a step is not replayed while the tail's removal rewrite waits for home's answer: the implementation
     * keeps the key's writes paused, and the controller busy, until then; the spec ends the pause when the
     * switch stamps the rewrite.
     */
    private static final String REWRITE_WAITING = "the tail controller's removal rewrite waits for home's answer: the "
            + "implementation keeps the key's writes paused and runs no other procedure until then; the spec ends the "
            + "pause when the switch stamps the rewrite";

    public PegasusChainReplay(ReplayTarget target) {
        this(target, PegasusServer::new);
    }

    /** @param servers the storage servers to replay (tests pass one with a seeded bug) */
    public PegasusChainReplay(ReplayTarget target, ServerFactory servers) {
        this(target, servers, ChainRackController::new);
    }

    /** @param controllers the racks' controllers to replay (tests pass one with a seeded bug) */
    public PegasusChainReplay(ReplayTarget target, ServerFactory servers, ControllerFactory controllers) {
        this.firstTarget = target;
        this.serverFactory = servers;
        this.controllerFactory = controllers;
    }

    // ------------------------------------------------------------------ set-up

    @Override
    public void init(SpecStep initial) {
        traceVariables.addAll(initial.vars().keySet());
        racks = intDomain(initial.var("verNext")).size();
        perRack = intDomain(atInt(initial.var("store"), 1)).size();
        if (!((Set<?>) atInt(initial.var("rset"), 1)).isEmpty()) {
            throw new NotReplayable("Replicated = TRUE: the spec sends a write to any set of a rack's servers, each passing "
                    + "it down the chain; the implementation sends it to one detector, whose copies stay in the rack");
        }
        List<Integer> serverHosts = new ArrayList<>();
        for (int h = 1; h <= racks * perRack; h++) {
            serverHosts.add(h);
        }
        int nextHost = serverHosts.size() + 1;
        for (long w : intDomain(initial.var("wr"))) {
            writeHost.put(w, nextHost++);
        }
        for (long x : intDomain(initial.var("rd"))) {
            readHost.put(x, nextHost++);
        }
        List<Integer> clientHosts = new ArrayList<>(writeHost.values());
        clientHosts.addAll(readHost.values());
        if (clientHosts.isEmpty()) {
            clientHosts.add(nextHost); // a rack has a client; this one never acts
        }
        ChainNetwork network = new ChainNetwork(racks);
        RackSpec spec = new RackSpec(serverHosts, clientHosts, RackPorts.CONTROLLER_HOST, 1, NEVER_HOT, NEVER_NANOS,
                STEP_NANOS, List.of(), NEVER_NANOS, false);
        topology = network.topology(spec);
        placement = new ChainPlacement(network.rackServers(serverHosts));
        key = chainKey();
        for (int r = 1; r <= racks; r++) {
            rackSwitches.put(r, r == 1 ? firstTarget : firstTarget.another());
        }
        core = firstTarget.another();
        ChainConfigService.programCore(core.control(), topology);
        SwitchHandle coreHandle = new SwitchHandle();
        coreHandle.attach(core.control());
        service = new ChainConfigService(placement, topology, clientHosts, coreHandle, SERVICE);
        serviceContext = new ReplayContext(RackPorts.CONTROLLER_HOST, 4);
        service.onStart(serviceContext);
        PegasusRack whole = new PegasusRack(serverHosts, RackPorts.CONTROLLER_HOST, NEVER_NANOS, CLIENT_ATTEMPTS, 1,
                2 * STEP_NANOS);
        for (var e : writeHost.entrySet()) {
            addClient(e.getValue(), whole);
        }
        for (var e : readHost.entrySet()) {
            addClient(e.getValue(), whole);
        }
        for (int r = 1; r <= racks; r++) {
            PegasusRack rack = rackOf(r);
            for (int host : placement.serversOf(r)) {
                ReplayContext ctx = new ReplayContext(host, 2);
                ChainRole role = new ChainRole(r, placement);
                roles.put(host, role);
                PegasusServer server = serverFactory.create(rack, RecordStoreOpener.memory(), new AtMostOnceMonitor(), role);
                server.onStart(ctx);
                servers.put(host, server);
                serverContexts.put(host, ctx);
            }
            startController(r, clientHosts);
        }
    }

    private PegasusRack rackOf(int r) {
        return new PegasusRack(placement.serversOf(r), ChainNetwork.controllerOf(r), NEVER_NANOS, CLIENT_ATTEMPTS, 1,
                2 * STEP_NANOS);
    }

    private void addClient(int host, PegasusRack whole) {
        ReplayContext ctx = new ReplayContext(host, 3);
        clientContexts.put(host, ctx);
        clients.put(host, new PegasusChainClient(ctx, whole, placement, null));
    }

    /** Rack r's controller, started and run until it has recovered (programmed and opened) its fresh switch. */
    private void startController(int r, List<Integer> clientHosts) {
        int me = ChainNetwork.controllerOf(r);
        String sw = ChainNetwork.rackSwitch(r);
        List<Integer> others = new ArrayList<>(topology.hosts().keySet());
        others.removeAll(placement.serversOf(r));
        others.remove(Integer.valueOf(me));
        PegasusController.Config config = new PegasusController.Config(rackOf(r), List.of(), clientHosts, NEVER_HOT,
                NEVER_NANOS, STEP_NANOS, RETRY_NANOS).inChain(others, h -> topology.portTowardHost(sw, h, Set.of()));
        SwitchHandle handle = new SwitchHandle();
        handle.attach(rackSwitches.get(r).control());
        ChainRackController controller = controllerFactory.create(config, handle, r, placement);
        ReplayContext ctx = new ReplayContext(me, 1);
        controller.onStart(ctx);
        controllers.put(r, controller);
        controllerContexts.put(r, ctx);
        runController(r, "Init");
    }

    /** Runs rack r's controller a control step at a time, routing its traffic, until it is idle with its switch open. */
    private void runController(int r, String action) {
        ChainRackController controller = controllers.get(r);
        runControllerUntil(r, action, () -> controller.idle() && controller.switchOpen());
        if (rewriteRack == r) {
            rewriteRack = -1; // idle: its rewrite procedure has ended
        }
    }

    /** Runs rack r's controller a control step at a time, routing its traffic, until {@code done}. */
    private void runControllerUntil(int r, String action, java.util.function.BooleanSupplier done) {
        ChainRackController controller = controllers.get(r);
        ReplayContext ctx = controllerContexts.get(r);
        for (int i = 0; i < MAX_CONTROL_STEPS; i++) {
            ctx.advance(STEP_NANOS);
            for (long timer : ctx.dueTimers()) {
                if (ctx.fire(timer)) {
                    controller.onTimer(timer);
                }
            }
            routeControlTraffic(r, action);
            if (done.getAsBoolean()) {
                return;
            }
        }
        throw new ReplayException(action + ": rack " + r + "'s controller did not finish within " + MAX_CONTROL_STEPS
                + " control steps");
    }

    /** The controller's requests through its switch to its servers and their answers back, until none is left. */
    private void routeControlTraffic(int r, String action) {
        ReplayTarget sw = rackSwitches.get(r);
        for (int round = 0; round < 100; round++) {
            List<ReplayTarget.Emitted> out = new ArrayList<>();
            for (byte[] frame : controllerContexts.get(r).takeSent()) {
                out.addAll(sw.inject(RackPorts.CPU_PORT, frame));
            }
            for (int host : placement.serversOf(r)) {
                for (byte[] frame : serverContexts.get(host).takeSent()) {
                    out.addAll(sw.inject(portOf(host), frame));
                }
            }
            if (out.isEmpty()) {
                return;
            }
            for (ReplayTarget.Emitted e : out) {
                int op = decode(e.frame()).message().op();
                if (e.port() == RackPorts.CPU_PORT) {
                    noteHomeRead(r, decode(e.frame()));
                    controllers.get(r).onPacket(e.frame());
                } else if (serverAtPort(r, e.port()) > 0 && (op == PegasusOp.WRITE || op == PegasusOp.DELETE)) {
                    holdRewrite(r, e);
                } else if (serverAtPort(r, e.port()) > 0 && op == PegasusOp.VIRTUAL_WRITE) {
                    holdVirtualWrite(r, e);
                } else if (serverAtPort(r, e.port()) > 0) {
                    servers.get(serverAtPort(r, e.port())).onPacket(e.frame());
                } else {
                    throw new ReplayException(action + ": rack " + r + "'s control traffic left its switch on port " + e.port());
                }
            }
        }
        throw new ReplayException(action + ": rack " + r + "'s controller and servers kept exchanging messages");
    }

    /** A VIRTUAL_WRITE the controller sent home through its switch: the spec's VW, in flight. */
    private void holdVirtualWrite(int r, ReplayTarget.Emitted e) {
        PegasusPacket p = decode(e.frame());
        requireSentHome("VirtualWriteAtTail", "VIRTUAL_WRITE", r, e);
        Map<String, Object> vw = new LinkedHashMap<>();
        vw.put("t", "VW");
        vw.put("rack", (long) r);
        vw.put("ver", p.message().seq());
        vw.put("fwd", serverSet(p.ext().fwd()));
        net.put(vw, Route.TO_SERVER, e.frame());
    }

    /** The controller's message left rack r's switch to home (the rack's first server), where the spec sends it. */
    private void requireSentHome(String action, String what, int r, ReplayTarget.Emitted e) {
        int server = indexInRack(r, serverAtPort(r, e.port()));
        if (server != 1) {
            throw new ReplayException(action + ": the " + what + " went to server " + server + " of rack " + r
                    + ", the spec's goes home (server 1)");
        }
    }

    /** An answer to the controller's flagged read from rack r's home (its first server): the rewrite's exp. */
    private void noteHomeRead(int r, PegasusPacket p) {
        if (p.message().op() == PegasusOp.READ_REPLY && (p.ext().pflags() & PegasusExt.FLAG_CONTROLLER_READ) != 0
                && RackAddressing.hostOfIp(p.frame().srcIp()) == hostOf(r, 1)) {
            homeVersionRead = p.message().seq();
        }
    }

    /**
     * The controller's removal rewrite as rack r's switch stamped it: PegasusChain.tla's RWReq (rack, the
     * stamped version, the value of the copy written, 0 for a DELETE: no copy; exp, the version the
     * controller read at home), in flight to home.
     */
    private void holdRewrite(int r, ReplayTarget.Emitted e) {
        PegasusPacket p = decode(e.frame());
        requireSentHome("RemovalRewriteAtTail", "rewrite", r, e);
        Map<String, Object> rw = new LinkedHashMap<>();
        rw.put("t", "RW");
        rw.put("rack", (long) r);
        rw.put("ver", p.message().seq());
        rw.put("val", p.message().op() == PegasusOp.DELETE ? 0L : WriteIds.writeIdOf(p.message().value()));
        rw.put("exp", homeVersionRead);
        net.put(rw, Route.TO_SERVER, e.frame());
        rewriteStamped = true;
    }

    /** A key other than the spec's whose chain starts at {@code rack} in the current view (for TailStampsOther). */
    private byte[] keyHeadedBy(int rack) {
        for (int i = 0; i < 100_000; i++) {
            byte[] k = InnetMessage.key("other-" + i);
            if (placement.headOf(k, view()) == rack && !java.util.Arrays.equals(k, key)) {
                return k;
            }
        }
        throw new NotReplayable("no key found whose chain starts at rack " + rack);
    }

    /** A key whose chain starts at rack 1 and whose home in every rack is the rack's first server. */
    private byte[] chainKey() {
        ChainView all = ChainView.initial(racks);
        for (int i = 0; i < 100_000; i++) {
            byte[] k = InnetMessage.key("chain-" + i);
            boolean fits = placement.headOf(k, all) == 1;
            for (int r = 1; r <= racks && fits; r++) {
                fits = placement.homeIn(r, k) == placement.serversOf(r).get(0);
            }
            if (fits) {
                return k;
            }
        }
        throw new NotReplayable("no key found whose chain starts at rack 1 with home at every rack's first server");
    }

    // ------------------------------------------------------------------ actions

    @Override
    public void perform(SpecStep before, SpecStep step) {
        if (step.vars().containsKey("ctab") && !specDetects) {
            specDetects = !isEmptyTables(step.var("ctab"));
        }
        String a = step.actionName();
        switch (a) {
            case "IssueWrite" -> issueWrite(step);
            case "RetryWrite" -> retryWrite(step);
            case "SwitchWrite" -> switchWrite(before, step);
            case "ServerWrite" -> serverWrite(before, step);
            case "IssueRead" -> issueRead(before, step);
            case "ServerRead" -> serverRead(step);
            case "SwitchReply" -> switchReply(step);
            case "Lose" -> net.lose(asRecord(step.param("m")));
            case "TailStampsOther" -> tailStampsOther(step);
            case "AddKeyAtTail" -> tailCommand("AddKeyAtTail", () -> controllers.get(tail()).commandAddKey(key));
            case "MarkRemoveAtTail" -> tailCommand("MarkRemoveAtTail", () -> controllers.get(tail()).commandMarkRemove(key));
            case "VirtualWriteAtTail" -> virtualWriteAtTail(before, step);
            case "ServerVirtualWrite" -> serverVirtualWrite(step);
            case "RemovalRewriteAtTail" -> removalRewriteAtTail();
            case "ServerRewrite" -> serverRewrite(step);
            case "RackFail" -> rackFail(step);
            case "Reconfigure" -> reconfigure(step);
            default -> throw new NotReplayable("no replay of " + a);
        }
    }

    @SuppressWarnings("unchecked")
    private static boolean isEmptyTables(Object ctab) {
        for (long r : intDomain(ctab)) {
            if (!((Set<Object>) atInt(ctab, r)).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** The chains' view as the configuration service holds it (every node is told it, {@link #reconfigure}). */
    private ChainView view() {
        return service.view();
    }

    /** The key's tail rack in the current view: the spec's {@code Tail}. */
    private int tail() {
        return placement.tailOf(key, view());
    }

    /** IssueWrite: the client sends write w to the key's home in the head rack; the core passes it on. */
    private void issueWrite(SpecStep step) {
        long w = asLong(step.param("w"));
        int host = writeHost.get(w);
        Op op = new Op(0);
        writes.put(w, op);
        clients.get(host).put(key, WriteIds.valueOf(w), r -> op.completed(r, true));
        sendWrite(step, w, host);
    }

    /**
     * RetryWrite: client w's timer fires and the real client resends its pending write, same request id,
     * addressed under the newest view it holds (after a failover, to the new head).
     */
    private void retryWrite(SpecStep step) {
        long w = asLong(step.param("w"));
        int host = writeHost.get(w);
        ReplayContext ctx = clientContexts.get(host);
        if (!clients.get(host).busy()) {
            throw new ReplayException("RetryWrite: client " + w + " has no write outstanding");
        }
        for (long timer : ctx.pendingTimers()) {
            if (ctx.fire(timer)) {
                clients.get(host).onTimer(timer);
            }
        }
        sendWrite(step, w, host);
    }

    /** The client's one frame, through the core towards the rack it addressed: held as {@code CWREQ(w, rack, 0, 0)}. */
    private void sendWrite(SpecStep step, long w, int host) {
        byte[] frame = onlyFrame(step, clientContexts.get(host).takeSent(), "the client");
        int rack = rackOfDestination(step, frame);
        byte[] atRack = passed(step, core, portOf(host), frame, coreUplink(rack));
        net.put(cwreq(w, rack, decode(atRack).message().seq(), 0), Route.TO_RACK_SWITCH, atRack);
    }

    /**
     * SwitchWrite: the write enters its rack's switch from the core; Algorithm 1 as §7 augments it stamps
     * an unstamped write and keeps a stamped one's version, and sends it home (the key is not replicated).
     */
    private void switchWrite(SpecStep before, SpecStep step) {
        Map<String, Object> m = asRecord(step.param("m"));
        int rack = (int) asLong(m.get("rack"));
        ReplayNetwork.Flight<Route> f = net.take("SwitchWrite", Route.TO_RACK_SWITCH, m, flag(step, "dup"));
        List<ReplayTarget.Emitted> out = rackSwitches.get(rack).inject(ChainNetwork.UPLINK_PORT, f.frame());
        if (out.isEmpty() && rewriteRack == rack) {
            throw new NotReplayable("SwitchWrite: rack " + rack + "'s switch dropped the write (paused): " + REWRITE_WAITING);
        }
        if (out.size() != 1 || serverAtPort(rack, out.get(0).port()) < 0) {
            throw new ReplayException("SwitchWrite: rack " + rack + "'s switch emitted " + describe(out)
                    + ", the spec one write to a server of the rack");
        }
        PegasusPacket p = decode(out.get(0).frame());
        long ver = p.message().seq();
        long hv = asLong(m.get("ver")) == 0 ? ver : asLong(m.get("hv"));
        int dst = indexInRack(rack, serverAtPort(rack, out.get(0).port()));
        Map<String, Object> wreq = new LinkedHashMap<>();
        wreq.put("t", "WREQ");
        wreq.put("w", m.get("w"));
        wreq.put("rack", (long) rack);
        wreq.put("ver", ver);
        wreq.put("hv", hv);
        wreq.put("dst", (long) dst);
        Set<Long> specDst = newDestinations(before, step, "WREQ");
        // a second copy of a stamped write is the same WREQ again: the spec's network, a set, already holds it
        boolean sameAgain = specDst.isEmpty() && ((Set<?>) step.var("net")).contains(wreq);
        if (!specDst.equals(Set.of((long) dst)) && !sameAgain) {
            throw new NotReplayable("SwitchWrite: the spec sends the write to servers " + specDst + " of rack " + rack
                    + "; the implementation's switch sends it to one, the detector its hash picks (" + dst + ")");
        }
        net.put(wreq, Route.TO_SERVER, out.get(0).frame());
    }

    /**
     * ServerWrite: the server applies the write if its version is higher and passes it on: at the tail, its
     * reply waits before the switch; elsewhere the write goes through its own switch (which must relay it
     * untouched, P-19) and the core to the next rack's switch. With at-most-once (§6.4) the server is its
     * rack's detector: a request its client table records (the spec's {@code DetectorDuplicate}) is neither
     * executed nor applied, and goes on under the recorded version, which is also the head's stamp it carries.
     */
    private void serverWrite(SpecStep before, SpecStep step) {
        Map<String, Object> m = asRecord(step.param("m"));
        long w = asLong(m.get("w"));
        int rack = (int) asLong(m.get("rack"));
        int host = hostOf(rack, (int) asLong(m.get("dst")));
        long ver = asLong(m.get("ver"));
        boolean specDuplicate = "DetectorDuplicate".equals(step.action().get("via"));
        ClientTable.Entry recorded = recordedWrite(host, w);
        if (!specDuplicate && recorded != null && recorded.version() != ver && !specRecords(before, rack, w)) {
            throw new NotReplayable("ServerWrite: write " + w + " reaches server " + host + " again under version " + ver
                    + " after it executed it under " + recorded.version() + "; this model has no at-most-once "
                    + "(EnableAtMostOnce = FALSE), the implementation's detector passes on (or answers) the version it recorded");
        }
        long storedBefore = storedVersion(host);
        long duplicatesBefore = servers.get(host).counters().getOrDefault("duplicates", 0L);
        servers.get(host).onPacket(net.take("ServerWrite", Route.TO_SERVER, m, flag(step, "dup")).frame());
        long storedAfter = storedVersion(host);
        boolean answeredFromTable = servers.get(host).counters().getOrDefault("duplicates", 0L) > duplicatesBefore;
        if (!answeredFromTable) {
            detectorExecutions.add(List.of((long) rack, w, ver));
        }
        if (rack == tail() && storedAfter != storedBefore) {
            executions.add(List.of(w, storedAfter));
        }
        byte[] frame = onlyFrame(step, serverContexts.get(host).takeSent(), "server " + host);
        PegasusPacket p = decode(frame);
        if (rack == tail()) {
            if (p.message().op() != PegasusOp.WRITE_REPLY) {
                throw new ReplayException("ServerWrite: the tail server sent op " + p.message().op() + ", the spec a reply");
            }
            Map<String, Object> wrep = new LinkedHashMap<>();
            wrep.put("t", "WREP");
            wrep.put("w", w);
            wrep.put("ver", p.message().seq());
            wrep.put("src", (long) p.ext().server());
            net.put(wrep, Route.SERVER_TO_SWITCH, frame);
            return;
        }
        if (p.message().op() != PegasusOp.WRITE) {
            throw new ReplayException("ServerWrite: rack " + rack + "'s server sent op " + p.message().op()
                    + ", the spec the write passed down the chain");
        }
        byte[] up = passed(step, rackSwitches.get(rack), portOf(host), frame, ChainNetwork.UPLINK_PORT);
        int next = rackOfDestination(step, up);
        byte[] down = passed(step, core, coreUplink(rack), up, coreUplink(next));
        long passedVersion = decode(down).message().seq();
        // a request answered from the table goes on as the write it recorded: the recorded version is its head stamp
        net.put(cwreq(w, next, passedVersion, specDuplicate ? passedVersion : asLong(m.get("hv"))), Route.TO_RACK_SWITCH,
                down);
    }

    /** Whether the spec's detector of rack r records write w (its client table, {@code ctab}) before the step. */
    @SuppressWarnings("unchecked")
    private static boolean specRecords(SpecStep before, int rack, long w) {
        if (!before.vars().containsKey("ctab")) {
            return false;
        }
        for (Object e : (Set<Object>) atInt(before.var("ctab"), rack)) {
            if (Long.valueOf(w).equals(((List<Object>) e).get(0))) {
                return true;
            }
        }
        return false;
    }

    /** IssueRead: the client reads at the key's home in the tail rack: through the core and the tail's switch. */
    private void issueRead(SpecStep before, SpecStep step) {
        long x = asLong(step.param("r"));
        int host = readHost.get(x);
        Op op = new Op(0);
        reads.put(x, op);
        clients.get(host).get(key, r -> op.completed(r, false));
        byte[] frame = onlyFrame(step, clientContexts.get(host).takeSent(), "the client");
        int rack = rackOfDestination(step, frame);
        byte[] atRack = passed(step, core, portOf(host), frame, coreUplink(rack));
        Set<Long> specDst = newDestinations(before, step, "RREQ");
        if (isDown(rack) && specDst.size() == 1) {
            // the tail has failed and the service has not removed it yet: the read waits before its dead switch
            // for nothing (the spec's RREQ, to the server it names; it is lost with the rack at Reconfigure)
            Map<String, Object> rreq = new LinkedHashMap<>();
            rreq.put("t", "RREQ");
            rreq.put("r", x);
            rreq.put("dst", specDst.iterator().next());
            net.put(rreq, Route.TO_RACK_SWITCH, atRack);
            return;
        }
        List<ReplayTarget.Emitted> out = rackSwitches.get(rack).inject(ChainNetwork.UPLINK_PORT, atRack);
        if (out.size() != 1 || serverAtPort(rack, out.get(0).port()) < 0) {
            throw new ReplayException("IssueRead: rack " + rack + "'s switch emitted " + describe(out)
                    + ", the spec one read to a server");
        }
        long dst = indexInRack(rack, serverAtPort(rack, out.get(0).port()));
        if (!specDst.equals(Set.of(dst))) {
            throw new NotReplayable("IssueRead: the spec reads from server " + specDst + " of the tail; the implementation's "
                    + "switch picks " + dst + " by the members' loads and its round-robin cursor");
        }
        Map<String, Object> rreq = new LinkedHashMap<>();
        rreq.put("t", "RREQ");
        rreq.put("r", x);
        rreq.put("dst", dst);
        net.put(rreq, Route.TO_SERVER, out.get(0).frame());
    }

    /** ServerRead: the tail server answers with its value and version; the reply waits before the switch. */
    private void serverRead(SpecStep step) {
        Map<String, Object> m = asRecord(step.param("m"));
        int host = hostOf(tail(), (int) asLong(m.get("dst")));
        servers.get(host).onPacket(net.take("ServerRead", Route.TO_SERVER, m, flag(step, "dup")).frame());
        byte[] frame = onlyFrame(step, serverContexts.get(host).takeSent(), "server " + host);
        PegasusPacket p = decode(frame);
        Map<String, Object> rrep = new LinkedHashMap<>();
        rrep.put("t", "RREP");
        rrep.put("r", m.get("r"));
        rrep.put("val", p.message().status() == KvStatus.OK ? WriteIds.writeIdOf(p.message().value()) : 0L);
        rrep.put("ver", p.message().seq());
        rrep.put("src", (long) p.ext().server());
        net.put(rrep, Route.SERVER_TO_SWITCH, frame);
    }

    /**
     * SwitchReply: the reply passes the tail's switch (Algorithm 2, and §6.3's removal rule) and goes on: a
     * client's reply through the core to its client; a virtual write's (write id 0) to whoever asked, the
     * controller (VIRTUAL_WRITE_REPLY) or home (a copy's REPLICATE_REPLY, ignored there). Exactly one frame
     * goes on; a removal's KEY_REMOVED report besides it goes to the tail's controller, whose ForgetRemoved
     * runs in the same step (the spec removes the key atomically).
     */
    private void switchReply(SpecStep step) {
        Map<String, Object> m = asRecord(step.param("m"));
        if ("RWREP".equals(m.get("t"))) {
            rewriteReply(step, m);
            return;
        }
        boolean write = "WREP".equals(m.get("t"));
        long id = asLong(m.get(write ? "w" : "r"));
        int t = tail();
        ReplayNetwork.Flight<Route> f = net.take("SwitchReply", Route.SERVER_TO_SWITCH, m, flag(step, "dup"));
        int serverHost = RackAddressing.hostOfIp(decode(f.frame()).frame().srcIp());
        List<ReplayTarget.Emitted> out = rackSwitches.get(t).inject(portOf(serverHost), f.frame());
        int onward = 0;
        boolean removed = false;
        for (ReplayTarget.Emitted e : out) {
            PegasusPacket p = decode(e.frame());
            if (e.port() == RackPorts.CPU_PORT && p.message().op() == PegasusOp.KEY_REMOVED) {
                removed = true;
                controllers.get(t).onPacket(e.frame());
            } else if (id != 0 && e.port() == ChainNetwork.UPLINK_PORT) {
                int clientHost = (write ? writeHost : readHost).get(id);
                clients.get(clientHost).onPacket(passed(step, core, coreUplink(t), e.frame(), portOf(clientHost)));
                onward++;
            } else if (id == 0 && e.port() == RackPorts.CPU_PORT) {
                controllers.get(t).onPacket(e.frame());
                onward++;
            } else if (id == 0 && serverAtPort(t, e.port()) > 0) {
                int host = serverAtPort(t, e.port());
                servers.get(host).onPacket(e.frame());
                if (!serverContexts.get(host).takeSent().isEmpty()) {
                    throw new ReplayException("SwitchReply: server " + host + " answered a copy's reply");
                }
                onward++;
            } else {
                throw new ReplayException("SwitchReply: the tail's switch sent the reply to port " + e.port()
                        + " (" + describe(out) + ")");
            }
        }
        if (onward != 1) {
            throw new ReplayException("SwitchReply: the tail's switch emitted " + describe(out)
                    + ", the spec passes the reply on once");
        }
        if (removed) {
            runController(t, "SwitchReply");
        }
    }

    /**
     * TailStampsOther: the tail's switch stamps a write of a key its own rack heads (another key, sent by a
     * host standing for that key's client); the frame it sends to its server is dropped, as the spec has
     * only the switch's ver_next change.
     */
    private void tailStampsOther(SpecStep step) {
        int t = tail();
        byte[] otherKey = keyHeadedBy(t);
        int host = placement.homeIn(t, otherKey);
        InnetMessage m = PegasusPacket.message(PegasusOp.WRITE, 0, 0, ++otherRequests, otherKey, 0, PegasusExt.NONE,
                WriteIds.valueOf(0));
        byte[] frame = new dev.innet.wire.UdpFrame(RackAddressing.hostMac(host), RackAddressing.hostMac(OTHER_CLIENT),
                RackAddressing.hostIp(OTHER_CLIENT), RackAddressing.hostIp(host), PegasusChainClient.SOURCE_PORT,
                PegasusOp.PORT, m.encode()).encode();
        List<ReplayTarget.Emitted> out = rackSwitches.get(t).inject(ChainNetwork.UPLINK_PORT, frame);
        if (out.size() != 1 || out.get(0).port() != portOf(host)) {
            throw new ReplayException("TailStampsOther: the tail's switch emitted " + describe(out)
                    + " for another key's write, the spec one stamped write to its home");
        }
    }

    /**
     * AddKeyAtTail, MarkRemoveAtTail: the tail's controller runs the procedure for the key (AddKey: pause,
     * drain, table migration, home's version, ADD_KEY with P-20's flag; MarkRemove: pause, drain, client
     * tables aggregated at home, MARK_REMOVE, which records mark = ver_next), its traffic routed through the
     * tail's switch until it is idle.
     */
    private void tailCommand(String action, Runnable command) {
        if (rewriteRack >= 0) {
            throw new NotReplayable(action + ": " + REWRITE_WAITING);
        }
        try {
            command.run();
        } catch (IllegalStateException e) {
            throw new ReplayException(action + ": the tail's controller refused: " + e.getMessage());
        }
        runController(tail(), action);
    }

    /**
     * VirtualWriteAtTail: the tail's controller's VirtualWrite (pause, drain, checks, VIRTUAL_WRITE to home
     * with ver_completed); the VIRTUAL_WRITE stays in flight as the spec's VW. The controller copies to
     * exactly the servers outside rset, the spec to any non-empty set of servers other than home: another
     * choice is not replayable.
     */
    @SuppressWarnings("unchecked")
    private void virtualWriteAtTail(SpecStep before, SpecStep step) {
        Set<Object> wanted = null;
        for (Object o : (Set<Object>) step.var("net")) {
            Map<String, Object> m = asRecord(o);
            if ("VW".equals(m.get("t")) && !((Set<Object>) before.var("net")).contains(o)) {
                wanted = (Set<Object>) m.get("fwd");
            }
        }
        if (wanted == null) {
            throw new ReplayException("VirtualWriteAtTail: the spec step adds no VW");
        }
        SwitchControl c = rackSwitches.get(tail()).control();
        int slot = slotOf(c, key);
        long outside = slot < 0 ? 0 : ((1L << perRack) - 1) & ~c.registerRead(RSET_BITMAP, slot).longValue();
        if (!serverSet(outside).equals(wanted)) {
            throw new NotReplayable("VirtualWriteAtTail: the spec copies to servers " + wanted + "; the controller copies "
                    + "to the servers outside rset, " + serverSet(outside));
        }
        tailCommand("VirtualWriteAtTail", () -> controllers.get(tail()).commandVirtualWrite(key));
    }

    /**
     * ServerVirtualWrite: home gets the VIRTUAL_WRITE (raises its version to the one given, keeps its value),
     * its copies (REPLICATE) go through the switch to the listed servers and are held as VWCOPY; or a server
     * gets its copy and stores it if higher. Either reply waits before the switch as {@code WREP} of write 0.
     */
    private void serverVirtualWrite(SpecStep step) {
        Map<String, Object> m = asRecord(step.param("m"));
        int rack = (int) asLong(m.get("rack"));
        boolean virtualWrite = "VW".equals(m.get("t"));
        int host = hostOf(rack, virtualWrite ? 1 : (int) asLong(m.get("dst")));
        servers.get(host).onPacket(net.take("ServerVirtualWrite", Route.TO_SERVER, m, flag(step, "dup")).frame());
        int replies = 0;
        for (byte[] frame : serverContexts.get(host).takeSent()) {
            PegasusPacket p = decode(frame);
            int op = p.message().op();
            if (virtualWrite && op == PegasusOp.REPLICATE) {
                List<ReplayTarget.Emitted> out = rackSwitches.get(rack).inject(portOf(host), frame);
                if (out.size() != 1 || serverAtPort(rack, out.get(0).port()) < 0) {
                    throw new ReplayException("ServerVirtualWrite: home's copy left the switch as " + describe(out)
                            + ", the spec one copy to a server of the rack");
                }
                Map<String, Object> copy = new LinkedHashMap<>();
                copy.put("t", "VWCOPY");
                copy.put("rack", (long) rack);
                copy.put("val", (p.message().flags() & PegasusOp.FLAG_DELETED) != 0 ? 0L
                        : WriteIds.writeIdOf(p.message().value()));
                copy.put("ver", p.message().seq());
                copy.put("dst", (long) indexInRack(rack, serverAtPort(rack, out.get(0).port())));
                net.put(copy, Route.TO_SERVER, out.get(0).frame());
            } else if (op == (virtualWrite ? PegasusOp.VIRTUAL_WRITE_REPLY : PegasusOp.REPLICATE_REPLY)) {
                replies++;
                Map<String, Object> wrep = new LinkedHashMap<>();
                wrep.put("t", "WREP");
                wrep.put("w", 0L);
                wrep.put("ver", p.message().seq());
                wrep.put("src", (long) p.ext().server());
                net.put(wrep, Route.SERVER_TO_SWITCH, frame);
            } else {
                throw new ReplayException("ServerVirtualWrite: server " + host + " sent op " + op
                        + ", which is no message of the spec");
            }
        }
        if (replies != 1) {
            throw new ReplayException("ServerVirtualWrite: server " + host + " sent " + replies + " replies, the spec one");
        }
    }

    // ------------------------------------------------------------------ issue 16's removal rewrite

    /**
     * RemovalRewriteAtTail: the tail's controller ends the key's removal now (its RemovalRewrite procedure:
     * pause, drain, reads of every server's copy through its switch, P-21 and P-22, the newest written from
     * the CPU port), until its switch has stamped the write, which is the spec's RW in flight to home; the
     * procedure then waits for home's answer. A second one (the spec lost the first's RW or RWREP) is the
     * procedure's next attempt, started when its resend interval passes without an answer.
     */
    private void removalRewriteAtTail() {
        int t = tail();
        if (rewriteRack == t) {
            controllerContexts.get(t).advance(RETRY_NANOS);
        } else if (rewriteRack >= 0) {
            throw new NotReplayable("RemovalRewriteAtTail: " + REWRITE_WAITING);
        } else {
            try {
                controllers.get(t).commandEndRemoval(key);
            } catch (IllegalStateException e) {
                throw new ReplayException("RemovalRewriteAtTail: the tail's controller refused: " + e.getMessage());
            }
        }
        rewriteRack = t;
        rewriteStamped = false;
        homeVersionRead = 0;
        runControllerUntil(t, "RemovalRewriteAtTail", () -> rewriteStamped);
    }

    /**
     * ServerRewrite: home handles the controller's write as its detector, applied if higher; its answer is
     * the spec's RWREP (held before the switch) when it applied it, or when the same message is still in
     * flight. Home also answers a copy it ran before (from its client table), which the spec's home, that
     * answers only an applied rewrite, does not: not replayed from there.
     */
    private void serverRewrite(SpecStep step) {
        Map<String, Object> m = asRecord(step.param("m"));
        int rack = (int) asLong(m.get("rack"));
        int host = hostOf(rack, 1);
        long before = storedVersion(host);
        servers.get(host).onPacket(net.take("ServerRewrite", Route.TO_SERVER, m, flag(step, "dup")).frame());
        boolean applied = storedVersion(host) != before;
        ReplayParts.rewriteAnswers(serverContexts.get(host).takeSent(), applied, p -> {
            Map<String, Object> reply = new LinkedHashMap<>();
            reply.put("t", "RWREP");
            reply.put("ver", p.message().seq());
            reply.put("src", (long) p.ext().server());
            return reply;
        }, net, Route.SERVER_TO_SWITCH);
    }

    /**
     * SwitchReply of an RWREP: home's answer to the rewrite passes the tail's switch (the removal rule, or
     * Algorithm 2) to the controller, a removal's KEY_REMOVED report too; the procedure ends (writes resume)
     * and ForgetRemoved runs in the same step.
     */
    private void rewriteReply(SpecStep step, Map<String, Object> m) {
        int t = tail();
        ReplayNetwork.Flight<Route> f = net.take("SwitchReply", Route.SERVER_TO_SWITCH, m, flag(step, "dup"));
        int serverHost = RackAddressing.hostOfIp(decode(f.frame()).frame().srcIp());
        List<ReplayTarget.Emitted> out = rackSwitches.get(t).inject(portOf(serverHost), f.frame());
        boolean answered = false;
        for (ReplayTarget.Emitted e : out) {
            if (e.port() != RackPorts.CPU_PORT) {
                throw new ReplayException("SwitchReply: the tail's switch sent the rewrite's answer to port " + e.port()
                        + " (" + describe(out) + ")");
            }
            answered |= decode(e.frame()).message().isReply();
            controllers.get(t).onPacket(e.frame());
        }
        if (!answered) {
            throw new ReplayException("SwitchReply: the rewrite's answer did not reach the controller: " + describe(out));
        }
        runController(t, "SwitchReply");
    }

    // ------------------------------------------------------------------ rack failure and reconfiguration

    /**
     * RackFail: rack f's switch crashes (the target loses every table and register and stays blank: nothing
     * reprograms it) and its servers and controller stop: the replay hands them nothing from now on, as the
     * spec lets nothing happen at a failed rack. Frames on their way to it stay held, waiting for nothing.
     */
    private void rackFail(SpecStep step) {
        int f = (int) asLong(step.param("rack"));
        if (isDown(f)) {
            throw new ReplayException("RackFail: rack " + f + " is already down");
        }
        rackSwitches.get(f).crash();
    }

    /** Whether rack r's switch is down (crashed and blank: not open to clients). */
    private boolean isDown(int r) {
        return rackSwitches.get(r).control().registerRead(SWITCH_OPEN, 0).intValue() != 1;
    }

    /**
     * Reconfigure: the real configuration service removes the failed rack. Its timers fire period by period:
     * it probes every live rack's servers (MAX_VERSION through the core and each rack's switch; the failed
     * rack's blank switch drops them), decides once rack f has been silent for its failure timeout, waits its
     * drain time, and announces the new view (CHAIN_CONFIG) to every client, server and rack controller of the
     * live racks, each of which adopts it and answers; all this traffic is routed through the switches until
     * every live node holds the new view. The frames held on their way to the failed rack are gone with it
     * (the spec's BoundFor). If f was the tail, the writes the new tail's servers hold become what reads see:
     * the spec's execs gets them.
     */
    private void reconfigure(SpecStep step) {
        int f = (int) asLong(step.param("rack"));
        if (!isDown(f)) {
            throw new ReplayException("Reconfigure: rack " + f + " is up; the service removes only failed racks");
        }
        boolean wasTail = f == tail();
        int periodsSinceRemoval = 0;
        for (int period = 0; period < MAX_SERVICE_PERIODS && periodsSinceRemoval < SETTLE_PERIODS; period++) {
            serviceContext.advance(Math.min(SERVICE.probeNanos(), SERVICE.retryNanos()));
            for (long timer : serviceContext.dueTimers()) {
                if (serviceContext.fire(timer)) {
                    service.onTimer(timer);
                }
            }
            routeServiceTraffic();
            if (!view().isLive(f)) {
                // every live node normally holds the new view at once; one that does not is left to the comparison
                // (liveRacks is every rack some live node still has in its view) after a few resends
                periodsSinceRemoval = heldViews().stream().allMatch(view()::equals) ? SETTLE_PERIODS : periodsSinceRemoval + 1;
            }
        }
        if (view().isLive(f)) {
            throw new ReplayException("Reconfigure: the configuration service still has rack " + f + " in its view "
                    + view() + " after " + MAX_SERVICE_PERIODS + " probe periods");
        }
        net.dropIf(flight -> rackOfFlight(flight) == f);
        if (wasTail) {
            for (int host : placement.serversOf(tail())) {
                servers.get(host).storedRecord(key).filter(rec -> !rec.deleted())
                        .ifPresent(rec -> executions.add(List.of(WriteIds.writeIdOf(rec.value()), rec.seq())));
            }
        }
    }

    /** The rack a held frame is going to (a switch's or a server's) or, for a reply before its switch, coming from. */
    private int rackOfFlight(ReplayNetwork.Flight<Route> flight) {
        var frame = decode(flight.frame()).frame();
        int host = RackAddressing.hostOfIp(flight.route() == Route.SERVER_TO_SWITCH ? frame.srcIp() : frame.dstIp());
        return placement.rackOfServer(host);
    }

    /** The views every client, and every server and controller of a live rack (in the service's view), hold. */
    private List<ChainView> heldViews() {
        List<ChainView> out = new ArrayList<>();
        for (PegasusChainClient c : clients.values()) {
            out.add(c.view());
        }
        for (int r = 1; r <= racks; r++) {
            if (view().isLive(r)) {
                out.add(controllers.get(r).view());
                for (int host : placement.serversOf(r)) {
                    out.add(roles.get(host).view().view());
                }
            }
        }
        return out;
    }

    /**
     * The configuration service's traffic and the answers to it, routed through the switches as the network
     * cables them (a rack's uplink to the core's port 100 + r), until nothing is left. A failed rack's nodes
     * get nothing (its blank switch has no routes anyway).
     */
    private void routeServiceTraffic() {
        Map<String, Integer> hostAt = new LinkedHashMap<>();
        topology.hosts().forEach((h, a) -> hostAt.put(a.switchName() + ":" + a.port(), h));
        for (int round = 0; round < 100; round++) {
            List<Object[]> arriving = new ArrayList<>(); // {switch name, port, frame}
            collectSent(arriving, RackPorts.CONTROLLER_HOST, serviceContext);
            clientContexts.forEach((h, ctx) -> collectSent(arriving, h, ctx));
            for (int r = 1; r <= racks; r++) {
                if (!isDown(r)) {
                    for (int h : placement.serversOf(r)) {
                        collectSent(arriving, h, serverContexts.get(h));
                    }
                    collectSent(arriving, ChainNetwork.controllerOf(r), controllerContexts.get(r));
                }
            }
            if (arriving.isEmpty()) {
                return;
            }
            while (!arriving.isEmpty()) {
                Object[] a = arriving.remove(0);
                String sw = (String) a[0];
                for (ReplayTarget.Emitted e : switchNamed(sw).inject((Integer) a[1], (byte[]) a[2])) {
                    if (!sw.equals(ChainNetwork.CORE) && e.port() == ChainNetwork.UPLINK_PORT) {
                        arriving.add(new Object[] {ChainNetwork.CORE, coreUplink(rackNumber(sw)), e.frame()});
                    } else if (sw.equals(ChainNetwork.CORE) && e.port() > ChainNetwork.UPLINK_PORT) {
                        arriving.add(new Object[] {ChainNetwork.rackSwitch(e.port() - ChainNetwork.UPLINK_PORT),
                                ChainNetwork.UPLINK_PORT, e.frame()});
                    } else {
                        Integer host = hostAt.get(sw + ":" + e.port());
                        if (host == null) {
                            throw new ReplayException("Reconfigure: switch " + sw + " sent the service's traffic to port "
                                    + e.port() + ", where no host is");
                        }
                        deliverServiceFrame(host, e.frame());
                    }
                }
            }
        }
        throw new ReplayException("Reconfigure: the configuration service's traffic did not settle");
    }

    private void collectSent(List<Object[]> arriving, int host, ReplayContext ctx) {
        Topology.Attachment a = topology.hosts().get(host);
        for (byte[] frame : ctx.takeSent()) {
            arriving.add(new Object[] {a.switchName(), a.port(), frame});
        }
    }

    private void deliverServiceFrame(int host, byte[] frame) {
        if (host == RackPorts.CONTROLLER_HOST) {
            service.onPacket(frame);
        } else if (clients.containsKey(host)) {
            clients.get(host).onPacket(frame);
        } else if (servers.containsKey(host)) {
            servers.get(host).onPacket(frame);
        } else if (host > ChainNetwork.RACK_CONTROLLER_BASE && controllers.containsKey(host - ChainNetwork.RACK_CONTROLLER_BASE)) {
            controllers.get(host - ChainNetwork.RACK_CONTROLLER_BASE).onPacket(frame);
        } else {
            throw new ReplayException("Reconfigure: the service's traffic reached host " + host + ", which runs no node");
        }
    }

    private ReplayTarget switchNamed(String name) {
        return name.equals(ChainNetwork.CORE) ? core : rackSwitches.get(rackNumber(name));
    }

    private static int rackNumber(String switchName) {
        return Integer.parseInt(switchName.substring("rack".length()));
    }

    /** The destinations of the spec messages of type {@code t} the step added to the network. */
    @SuppressWarnings("unchecked")
    private static Set<Long> newDestinations(SpecStep before, SpecStep step, String t) {
        Set<Object> old = (Set<Object>) before.var("net");
        Set<Long> out = new java.util.TreeSet<>();
        for (Object o : (Set<Object>) step.var("net")) {
            Map<String, Object> m = asRecord(o);
            if (t.equals(m.get("t")) && !old.contains(o)) {
                out.add(asLong(m.get("dst")));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ frames through switches

    /**
     * The frame must leave switch {@code sw} on {@code toPort}, alone, and is returned as it left. A switch
     * frames pass on their way (the core, or a rack's switch for another rack's traffic) changes nothing
     * but the UDP checksum (P-18), which the replay's frames do not carry.
     */
    private static byte[] passed(SpecStep step, ReplayTarget sw, int fromPort, byte[] frame, int toPort) {
        List<ReplayTarget.Emitted> out = sw.inject(fromPort, frame);
        if (out.size() != 1 || out.get(0).port() != toPort) {
            throw new ReplayException(step.actionName() + ": a frame from port " + fromPort + " left as " + describe(out)
                    + ", expected on port " + toPort);
        }
        return out.get(0).frame();
    }

    /** The rack of the server the frame is addressed to: the core must pass it to that rack's switch. */
    private int rackOfDestination(SpecStep step, byte[] frame) {
        int dstHost = RackAddressing.hostOfIp(decode(frame).frame().dstIp());
        int rack = placement.rackOfServer(dstHost);
        if (rack == 0) {
            throw new ReplayException(step.actionName() + ": a frame to host " + dstHost + ", no server of any rack");
        }
        return rack;
    }

    private static int coreUplink(int rack) {
        return ChainNetwork.UPLINK_PORT + rack;
    }

    private int portOf(int host) {
        return topology.hosts().get(host).port();
    }

    /** The server host of rack r on {@code port}, or -1. */
    private int serverAtPort(int rack, int port) {
        for (int host : placement.serversOf(rack)) {
            if (portOf(host) == port) {
                return host;
            }
        }
        return -1;
    }

    private int indexInRack(int rack, int host) {
        return placement.serversOf(rack).indexOf(host) + 1;
    }

    private int hostOf(int rack, int s) {
        return placement.serversOf(rack).get(s - 1);
    }

    private static byte[] onlyFrame(SpecStep step, List<byte[]> sent, String who) {
        if (sent.size() != 1) {
            throw new ReplayException(step.actionName() + ": " + who + " sent " + sent.size() + " frames, the spec one message");
        }
        return sent.get(0);
    }

    private static Map<String, Object> cwreq(long w, int rack, long ver, long hv) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t", "CWREQ");
        m.put("w", w);
        m.put("rack", (long) rack);
        m.put("ver", ver);
        m.put("hv", hv);
        return m;
    }

    private ClientTable.Entry recordedWrite(int host, long w) {
        int client = writeHost.get(w);
        for (ClientTable.Entry e : new ClientTable(serverContexts.get(host).durable()).entriesFor(key)) {
            if (RackAddressing.hostOfIp(e.clientIp()) == client) {
                return e;
            }
        }
        return null;
    }

    private long storedVersion(int host) {
        return servers.get(host).storedRecord(key).map(StoredRecord::seq).orElse(0L);
    }

    // ------------------------------------------------------------------ the refinement mapping

    /**
     * failedRacks from the racks whose switch is down (blank after its crash); liveRacks from the
     * configuration service's view and the views the live nodes hold (a rack any of them still has is live
     * for it: the spec's announcement is instantaneous); verNext, rset, verCompleted from each live rack's switch (the key's
     * directory slot, if any: none while the key is not replicated), a failed rack's being lost with it
     * ({@link #LOST_WITH_RACK}: the spec keeps them as they were); store from the servers (a failed rack's
     * servers keep theirs, unchanged); net from the frames held; wr and rd as the clients show them; execs
     * from the tail servers' stores; tailRepl and tailMark from the tail's slot (its state and mark_ver);
     * with at-most-once (once the spec's client tables are not empty) ctab from each rack's home's client
     * table and detExecs from the executions the replay saw detectors make. Not compared: the budgets
     * ({@code used}, {@code otherStamps}) and the history variables {@code hvOf}, {@code lastHv},
     * {@code inversions}, {@code extVer}, {@code act}. A variable an older trace does not have is not compared.
     */
    @Override
    public Map<String, Object> observe() {
        SortedMap<Long, Object> verNext = new TreeMap<>();
        SortedMap<Long, Object> rset = new TreeMap<>();
        SortedMap<Long, Object> verCompleted = new TreeMap<>();
        SortedMap<Long, Object> store = new TreeMap<>();
        SortedMap<Long, Object> ctab = new TreeMap<>();
        Set<Object> failed = new LinkedHashSet<>();
        Set<Object> live = new LinkedHashSet<>();
        Object tailReplicated = LOST_WITH_RACK;
        Object tailMark = LOST_WITH_RACK;
        int t = tail();
        for (int r = 1; r <= racks; r++) {
            int rack = r;
            if (view().isLive(r) || heldViews().stream().anyMatch(v -> v.isLive(rack))) {
                live.add((long) r);
            }
            SortedMap<Long, Object> perServer = new TreeMap<>();
            for (int s = 1; s <= perRack; s++) {
                StoredRecord rec = servers.get(hostOf(r, s)).storedRecord(key).orElse(null);
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("val", rec == null || rec.deleted() ? 0L : WriteIds.writeIdOf(rec.value()));
                v.put("ver", rec == null ? 0L : rec.seq());
                perServer.put((long) s, v);
            }
            store.put((long) r, intFunction(perServer));
            ctab.put((long) r, clientTable(hostOf(r, 1)));
            if (isDown(r)) {
                failed.add((long) r);
                verNext.put((long) r, LOST_WITH_RACK);
                rset.put((long) r, LOST_WITH_RACK);
                verCompleted.put((long) r, LOST_WITH_RACK);
                continue;
            }
            SwitchControl c = rackSwitches.get(r).control();
            long next = c.registerRead(VER_NEXT, 0).longValue();
            verNext.put((long) r, next == 0 ? 1L : next);
            int slot = slotOf(c, key);
            int state = slot < 0 ? 0 : c.registerRead(KEY_STATE, slot).intValue();
            boolean replicated = state != 0;
            rset.put((long) r, replicated ? serverSet(c.registerRead(RSET_BITMAP, slot).longValue()) : Set.of());
            verCompleted.put((long) r, replicated ? c.registerRead(VER_COMPLETED, slot).longValue() : 0L);
            if (r == t) {
                tailReplicated = replicated;
                tailMark = state == KEY_MARKED ? c.registerRead(MARK_VER, slot).longValue() : 0L;
            }
        }
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("failedRacks", failed); // first: a rack that is down on one side only explains what follows
        state.put("liveRacks", live);
        state.put("verNext", intFunction(verNext));
        state.put("rset", intFunction(rset));
        state.put("verCompleted", intFunction(verCompleted));
        state.put("store", intFunction(store));
        state.put("net", net.messages());
        state.put("wr", intFunction(operations(writeHost.keySet(), writes, true)));
        state.put("rd", intFunction(operations(readHost.keySet(), reads, false)));
        state.put("execs", new LinkedHashSet<>(executions));
        state.put("tailRepl", tailReplicated);
        state.put("tailMark", tailMark);
        if (specDetects) {
            state.put("ctab", intFunction(ctab));
            state.put("detExecs", new LinkedHashSet<>(detectorExecutions));
        }
        state.keySet().retainAll(traceVariables);
        return state;
    }

    /** Server host's client-table entries for the key, each as the spec's {@code <<write id, version>>}. */
    private Set<Object> clientTable(int host) {
        Set<Object> out = new LinkedHashSet<>();
        for (ClientTable.Entry e : new ClientTable(serverContexts.get(host).durable()).entriesFor(key)) {
            int client = RackAddressing.hostOfIp(e.clientIp());
            for (var w : writeHost.entrySet()) {
                if (w.getValue() == client) {
                    out.add(List.of(w.getKey(), e.version()));
                }
            }
        }
        return out;
    }

    private static SortedMap<Long, Object> operations(Set<Long> ids, Map<Long, Op> ops, boolean write) {
        SortedMap<Long, Object> out = new TreeMap<>();
        for (long id : ids) {
            Op op = ops.get(id);
            out.put(id, op == null ? clientView("idle", 0, 0, write) : clientView(op.status, op.version, op.value, write));
        }
        return out;
    }

    /** What a client can show: idle, pending, or done with the version (and a read's value); the spec's floor is history. */
    private static Map<String, Object> clientView(String status, long version, long value, boolean write) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("st", status);
        if ("done".equals(status)) {
            out.put("ver", version);
            if (!write) {
                out.put("val", value);
            }
        }
        return out;
    }

    /**
     * wr and rd projected on what a client shows; a failed rack's switch state (verNext, rset, verCompleted,
     * and tailRepl and tailMark while the failed rack is still the tail) as {@link #LOST_WITH_RACK}.
     */
    @Override
    @SuppressWarnings("unchecked")
    public Object projectSpec(String var, SpecStep state) {
        Object specValue = state.var(var);
        Set<Object> failed = state.vars().containsKey("failedRacks") ? (Set<Object>) state.var("failedRacks") : Set.of();
        switch (var) {
            case "wr", "rd" -> {
                boolean write = var.equals("wr");
                SortedMap<Long, Object> out = new TreeMap<>();
                for (long id : intDomain(specValue)) {
                    Map<String, Object> r = asRecord(atInt(specValue, id));
                    out.put(id, clientView((String) r.get("st"), asLong(r.get("ver")), write ? 0 : asLong(r.get("val")),
                            write));
                }
                return intFunction(out);
            }
            case "verNext", "rset", "verCompleted" -> {
                SortedMap<Long, Object> out = new TreeMap<>();
                for (long r : intDomain(specValue)) {
                    out.put(r, failed.contains(r) ? LOST_WITH_RACK : atInt(specValue, r));
                }
                return intFunction(out);
            }
            case "tailRepl", "tailMark" -> {
                long specTail = state.vars().containsKey("liveRacks")
                        ? ((Set<Object>) state.var("liveRacks")).stream().mapToLong(o -> (Long) o).max().orElseThrow()
                        : racks;
                return failed.contains(specTail) ? LOST_WITH_RACK : specValue;
            }
            default -> {
                return specValue;
            }
        }
    }
}
