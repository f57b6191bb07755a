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
    private static final int NEVER_HOT = 1_000_000_000;
    private static final int MAX_CONTROL_STEPS = 64;
    private static final int CLIENT_ATTEMPTS = 1_000;

    private static final String VER_NEXT = "MyIngress.ver_next";
    private static final String KEY_STATE = "MyIngress.key_state";
    private static final String VER_COMPLETED = "MyIngress.ver_completed";
    private static final String RSET_BITMAP = "MyIngress.rset_bitmap";

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
    /** A key the tail rack heads (TailStampsOther), and the host standing for its client. */
    private byte[] otherKey;
    private long otherRequests;
    private static final int OTHER_CLIENT = 99;
    private final Map<Integer, PegasusServer> servers = new TreeMap<>();
    private final Map<Integer, ReplayContext> serverContexts = new TreeMap<>();
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
        otherKey = keyHeadedBy(racks);
        for (int r = 1; r <= racks; r++) {
            rackSwitches.put(r, r == 1 ? firstTarget : firstTarget.another());
        }
        core = firstTarget.another();
        ChainConfigService.programCore(core.control(), topology);
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
                PegasusServer server = serverFactory.create(rack, RecordStoreOpener.memory(), new AtMostOnceMonitor(),
                        new ChainRole(r, placement));
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
                NEVER_NANOS, STEP_NANOS, NEVER_NANOS).inChain(others, h -> topology.portTowardHost(sw, h, Set.of()));
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
        ReplayContext ctx = controllerContexts.get(r);
        for (int i = 0; i < MAX_CONTROL_STEPS; i++) {
            ctx.advance(STEP_NANOS);
            for (long timer : ctx.dueTimers()) {
                if (ctx.fire(timer)) {
                    controller.onTimer(timer);
                }
            }
            routeControlTraffic(r, action);
            if (controller.idle() && controller.switchOpen()) {
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
                if (e.port() == RackPorts.CPU_PORT) {
                    controllers.get(r).onPacket(e.frame());
                } else if (serverAtPort(r, e.port()) > 0) {
                    servers.get(serverAtPort(r, e.port())).onPacket(e.frame());
                } else {
                    throw new ReplayException(action + ": rack " + r + "'s control traffic left its switch on port " + e.port());
                }
            }
        }
        throw new ReplayException(action + ": rack " + r + "'s controller and servers kept exchanging messages");
    }

    /** A key whose chain starts at {@code rack} (the tail's own keys, for TailStampsOther). */
    private byte[] keyHeadedBy(int rack) {
        for (int i = 0; i < 100_000; i++) {
            byte[] k = InnetMessage.key("other-" + i);
            if (placement.headOf(k, ChainView.initial(racks)) == rack) {
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
        String a = step.actionName();
        switch (a) {
            case "IssueWrite" -> issueWrite(step);
            case "SwitchWrite" -> switchWrite(before, step);
            case "ServerWrite" -> serverWrite(step);
            case "IssueRead" -> issueRead(before, step);
            case "ServerRead" -> serverRead(step);
            case "SwitchReply" -> switchReply(step);
            case "Lose" -> net.lose(asRecord(step.param("m")));
            case "TailStampsOther" -> tailStampsOther(step);
            case "AddKeyAtTail" -> addKeyAtTail(step);
            default -> throw new NotReplayable("no replay of " + a);
        }
    }

    /** IssueWrite: the client sends write w to the key's home in the head rack; the core passes it on. */
    private void issueWrite(SpecStep step) {
        long w = asLong(step.param("w"));
        int host = writeHost.get(w);
        Op op = new Op(0);
        writes.put(w, op);
        clients.get(host).put(key, WriteIds.valueOf(w), r -> op.completed(r, true));
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
        if (out.size() != 1 || serverAtPort(rack, out.get(0).port()) < 0) {
            throw new ReplayException("SwitchWrite: rack " + rack + "'s switch emitted " + describe(out)
                    + ", the spec one write to a server of the rack");
        }
        PegasusPacket p = decode(out.get(0).frame());
        long ver = p.message().seq();
        long hv = asLong(m.get("ver")) == 0 ? ver : asLong(m.get("hv"));
        int dst = indexInRack(rack, serverAtPort(rack, out.get(0).port()));
        Set<Long> specDst = newDestinations(before, step, "WREQ");
        if (!specDst.equals(Set.of((long) dst))) {
            throw new NotReplayable("SwitchWrite: the spec sends the write to servers " + specDst + " of rack " + rack
                    + "; the implementation's switch sends it to one, the detector its hash picks (" + dst + ")");
        }
        Map<String, Object> wreq = new LinkedHashMap<>();
        wreq.put("t", "WREQ");
        wreq.put("w", m.get("w"));
        wreq.put("rack", (long) rack);
        wreq.put("ver", ver);
        wreq.put("hv", hv);
        wreq.put("dst", (long) dst);
        net.put(wreq, Route.TO_SERVER, out.get(0).frame());
    }

    /**
     * ServerWrite: the server applies the write if its version is higher and passes it on: at the tail, its
     * reply waits before the switch; elsewhere the write goes through its own switch (which must relay it
     * untouched, P-19) and the core to the next rack's switch.
     */
    private void serverWrite(SpecStep step) {
        Map<String, Object> m = asRecord(step.param("m"));
        long w = asLong(m.get("w"));
        int rack = (int) asLong(m.get("rack"));
        int host = hostOf(rack, (int) asLong(m.get("dst")));
        long ver = asLong(m.get("ver"));
        ClientTable.Entry recorded = recordedWrite(host, w);
        if (recorded != null && recorded.version() != ver) {
            throw new NotReplayable("ServerWrite: write " + w + " reaches server " + host + " again under version " + ver
                    + " after it executed it under " + recorded.version() + "; the spec has no at-most-once, the "
                    + "implementation's detector passes on (or answers) the version it recorded");
        }
        long before = storedVersion(host);
        servers.get(host).onPacket(net.take("ServerWrite", Route.TO_SERVER, m, flag(step, "dup")).frame());
        long after = storedVersion(host);
        if (rack == racks && after != before) {
            executions.add(List.of(w, after));
        }
        byte[] frame = onlyFrame(step, serverContexts.get(host).takeSent(), "server " + host);
        PegasusPacket p = decode(frame);
        if (rack == racks) {
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
        net.put(cwreq(w, next, decode(down).message().seq(), asLong(m.get("hv"))), Route.TO_RACK_SWITCH, down);
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
        List<ReplayTarget.Emitted> out = rackSwitches.get(rack).inject(ChainNetwork.UPLINK_PORT, atRack);
        if (out.size() != 1 || serverAtPort(rack, out.get(0).port()) < 0) {
            throw new ReplayException("IssueRead: rack " + rack + "'s switch emitted " + describe(out)
                    + ", the spec one read to a server");
        }
        long dst = indexInRack(rack, serverAtPort(rack, out.get(0).port()));
        Set<Long> specDst = newDestinations(before, step, "RREQ");
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
        int host = hostOf(racks, (int) asLong(m.get("dst")));
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

    /** SwitchReply: the reply passes the tail's switch (Algorithm 2) and the core, and reaches its client. */
    private void switchReply(SpecStep step) {
        Map<String, Object> m = asRecord(step.param("m"));
        boolean write = "WREP".equals(m.get("t"));
        ReplayNetwork.Flight<Route> f = net.take("SwitchReply", Route.SERVER_TO_SWITCH, m, flag(step, "dup"));
        int serverHost = RackAddressing.hostOfIp(decode(f.frame()).frame().srcIp());
        int clientHost = (write ? writeHost : readHost).get(asLong(m.get(write ? "w" : "r")));
        byte[] up = passed(step, rackSwitches.get(racks), portOf(serverHost), f.frame(), ChainNetwork.UPLINK_PORT);
        byte[] atClient = passed(step, core, coreUplink(racks), up, portOf(clientHost));
        clients.get(clientHost).onPacket(atClient);
    }

    /**
     * TailStampsOther: the tail's switch stamps a write of a key its own rack heads (another key, sent by a
     * host standing for that key's client); the frame it sends to its server is dropped, as the spec has
     * only the switch's ver_next change.
     */
    private void tailStampsOther(SpecStep step) {
        int host = placement.homeIn(racks, otherKey);
        InnetMessage m = PegasusPacket.message(PegasusOp.WRITE, 0, 0, ++otherRequests, otherKey, 0, PegasusExt.NONE,
                WriteIds.valueOf(0));
        byte[] frame = new dev.innet.wire.UdpFrame(RackAddressing.hostMac(host), RackAddressing.hostMac(OTHER_CLIENT),
                RackAddressing.hostIp(OTHER_CLIENT), RackAddressing.hostIp(host), PegasusChainClient.SOURCE_PORT,
                PegasusOp.PORT, m.encode()).encode();
        List<ReplayTarget.Emitted> out = rackSwitches.get(racks).inject(ChainNetwork.UPLINK_PORT, frame);
        if (out.size() != 1 || out.get(0).port() != portOf(host)) {
            throw new ReplayException("TailStampsOther: the tail's switch emitted " + describe(out)
                    + " for another key's write, the spec one stamped write to its home");
        }
    }

    /** AddKeyAtTail: the tail's controller adds the key (pause, drain, table migration, home's version, ADD_KEY, P-20). */
    private void addKeyAtTail(SpecStep step) {
        try {
            controllers.get(racks).commandAddKey(key);
        } catch (IllegalStateException e) {
            throw new ReplayException("AddKeyAtTail: the tail's controller refused: " + e.getMessage());
        }
        runController(racks, "AddKeyAtTail");
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
     * verNext, rset, verCompleted from each rack's switch (the key's directory slot, if any: none while
     * the key is not replicated); store from the servers; net from the frames in flight; wr and rd as the
     * clients show them; execs from the tail servers' stores; tailRepl from the tail's slot. Not compared:
     * the budgets ({@code used}, {@code otherStamps}) and the history variables {@code hvOf}, {@code lastHv}, {@code inversions}, {@code extVer}, {@code act}.
     */
    @Override
    public Map<String, Object> observe() {
        SortedMap<Long, Object> verNext = new TreeMap<>();
        SortedMap<Long, Object> rset = new TreeMap<>();
        SortedMap<Long, Object> verCompleted = new TreeMap<>();
        SortedMap<Long, Object> store = new TreeMap<>();
        boolean tailReplicated = false;
        for (int r = 1; r <= racks; r++) {
            SwitchControl c = rackSwitches.get(r).control();
            long next = c.registerRead(VER_NEXT, 0).longValue();
            verNext.put((long) r, next == 0 ? 1L : next);
            int slot = slotOf(c, key);
            boolean replicated = slot >= 0 && c.registerRead(KEY_STATE, slot).intValue() != 0;
            tailReplicated |= r == racks && replicated;
            rset.put((long) r, replicated ? serverSet(c.registerRead(RSET_BITMAP, slot).longValue()) : Set.of());
            verCompleted.put((long) r, replicated ? c.registerRead(VER_COMPLETED, slot).longValue() : 0L);
            SortedMap<Long, Object> perServer = new TreeMap<>();
            for (int s = 1; s <= perRack; s++) {
                StoredRecord rec = servers.get(hostOf(r, s)).storedRecord(key).orElse(null);
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("val", rec == null || rec.deleted() ? 0L : WriteIds.writeIdOf(rec.value()));
                v.put("ver", rec == null ? 0L : rec.seq());
                perServer.put((long) s, v);
            }
            store.put((long) r, intFunction(perServer));
        }
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("verNext", intFunction(verNext));
        state.put("rset", intFunction(rset));
        state.put("verCompleted", intFunction(verCompleted));
        state.put("store", intFunction(store));
        state.put("net", net.messages());
        state.put("wr", intFunction(operations(writeHost.keySet(), writes, true)));
        state.put("rd", intFunction(operations(readHost.keySet(), reads, false)));
        state.put("execs", new LinkedHashSet<>(executions));
        state.put("tailRepl", tailReplicated);
        return state;
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

    @Override
    public Object projectSpec(String var, Object specValue) {
        if (!var.equals("wr") && !var.equals("rd")) {
            return specValue;
        }
        boolean write = var.equals("wr");
        SortedMap<Long, Object> out = new TreeMap<>();
        for (long id : intDomain(specValue)) {
            Map<String, Object> r = asRecord(atInt(specValue, id));
            out.put(id, clientView((String) r.get("st"), asLong(r.get("ver")), write ? 0 : asLong(r.get("val")), write));
        }
        return intFunction(out);
    }
}
