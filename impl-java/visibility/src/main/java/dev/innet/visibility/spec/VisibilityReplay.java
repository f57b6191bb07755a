package dev.innet.visibility.spec;

import static dev.innet.protocol.spec.TlaValues.asLong;
import static dev.innet.protocol.spec.TlaValues.asRecord;
import static dev.innet.protocol.spec.TlaValues.name;

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
import dev.innet.sim.Node;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.visibility.RackRoles;
import dev.innet.visibility.client.VisibilityClient;
import dev.innet.visibility.controller.SwitchNames;
import dev.innet.visibility.controller.VisibilitySwitchOs;
import dev.innet.visibility.datanode.DataNode;
import dev.innet.visibility.datanode.LogEntry;
import dev.innet.visibility.metadata.MetadataNode;
import dev.innet.visibility.wire.IndexRecord;
import dev.innet.visibility.wire.LogAddress;
import dev.innet.visibility.wire.VisExt;
import dev.innet.visibility.wire.VisOp;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Visibility.tla replayed on the implementation: p4/visibility.p4 on the replay target, one
 * {@link MetadataNode}, one {@link DataNode}, a {@link VisibilityClient} per spec operation (the spec's
 * writes and reads are independent operations; each gets a client host, which runs one operation at a
 * time) and the switch OS {@link VisibilitySwitchOs} with its real resynchronisation and stale-entry
 * scan. Every frame between them is routed by this class, so the spec's choice of which message is
 * delivered, lost or duplicated next is followed exactly (docs/conformance.md, "Visibility").
 *
 * <p>Messages the switch acts on (WRep = WRITE_REPLY, MRep = META_UPDATE_REPLY, Clr = CLEAR, RReq = READ)
 * go through the P4 program in the step of the spec's switch action; every other message is handed to
 * the node it is addressed to in the step of its receiver's action (the switch would only forward it).
 * The spec's read path has no client step between the metadata lookup and the data read (its switch and
 * metadata node send DRead straight to the data node), where the implementation answers the client,
 * which then sends DATA_READ: a spec DRead is the READ_REPLY on its way to the client, and the spec's
 * DnRead hands it to the client and the client's DATA_READ to the data node in one step.
 *
 * <p>The model's key layout is MCVisibility's: every key in the one slot of the model, fingerprint 7
 * (the spec's SlotOf and FpOf are constants, which no trace carries); a model with more than one slot is
 * not replayable.
 */
public final class VisibilityReplay implements SpecReplay {
    private static final int METADATA_NODE = 1;
    private static final int DATA_NODE = 2;
    private static final int FIRST_CLIENT = 3;
    private static final int SWITCH_OS = RackPorts.CONTROLLER_HOST;
    /** MCVisibility's MCFpOf: every key's fingerprint (a full collision with one slot). */
    static final long MODEL_FINGERPRINT = 7;
    private static final long TIMEOUT_NANOS = 500_000;
    /** The switch OS's stale-scan period; the replay advances its clock by it before each scan. */
    private static final long STALE_SCAN_NANOS = 5_000_000;
    private static final ModelValue NO_W = new ModelValue("NoW");
    private static final ModelValue NO_KEY = new ModelValue("NoKey");

    /** Who receives a message in flight (the spec's message type decides). */
    private enum Route { DATA_NODE, METADATA_NODE, SWITCH, CLIENT }

    /** Builds the nodes the replay runs (tests substitute one with a seeded bug). */
    public record Nodes(Function<RackRoles, DataNode> dataNodes, Function<RackRoles, MetadataNode> metadataNodes,
            VisibilitySwitchOs.ResyncFactory resyncs) {
        /** The implementation's own nodes, as VisibilityProtocol builds them (batches only when the spec says). */
        public static final Nodes REAL = new Nodes(DataNode::new,
                roles -> new MetadataNode(roles, 1 << 16, roles.timeoutNanos() / 50, roles.timeoutNanos() / 25),
                VisibilitySwitchOs.RESYNC);
    }

    /** One spec operation's client and what the replay saw of it. */
    private static final class Client {
        final String op;
        final boolean write;
        final ReplayContext ctx;
        final VisibilityClient library;
        String key;
        /** "idle", then for a write "data" / "meta" (the phase of its last request), "done"; a read "pending", "done" */
        String state = "idle";
        /** the timestamp of a write's last META_UPDATE */
        long metaTs;
        /** a read past its metadata lookup: its last request was a DATA_READ */
        boolean readingData;
        KvResult result;

        Client(String op, boolean write, ReplayContext ctx, RackRoles roles) {
            this.op = op;
            this.write = write;
            this.ctx = ctx;
            this.library = new VisibilityClient(ctx, roles, null, 1_000_000, 1_000_000);
        }
    }

    private final ReplayTarget target;
    private final Nodes nodes;
    private final SwitchHandle handle = new SwitchHandle();
    private final ReplayNetwork<Route> net = new ReplayNetwork<>();
    private final Map<String, byte[]> keyBytes = new TreeMap<>();
    private final Map<String, String> keyOfHex = new HashMap<>();
    private final Map<String, Client> clientOfOp = new TreeMap<>();
    private final Map<Integer, Client> clientOfHost = new HashMap<>();
    private final List<String> writes = new ArrayList<>();
    private final List<String> reads = new ArrayList<>();
    private long slot;
    private RackRoles roles;
    private ReplayContext metadataContext;
    private ReplayContext dataContext;
    private ReplayContext osContext;
    private MetadataNode metadataNode;
    private DataNode dataNode;
    private VisibilitySwitchOs switchOs;
    /** true while the switch is being resynchronised: CLEARs the metadata node drains then meet a switch that is not ready */
    private boolean resyncing;
    /** The frames in flight that came out of the switch (the others still have to pass it). */
    private final Set<byte[]> emittedBySwitch = Collections.newSetFromMap(new IdentityHashMap<>());

    public VisibilityReplay(ReplayTarget target) {
        this(target, Nodes.REAL);
    }

    /** @param nodes the data node, metadata node and resynchronisation to replay (tests pass seeded bugs) */
    public VisibilityReplay(ReplayTarget target, Nodes nodes) {
        this.target = target;
        this.nodes = nodes;
    }

    /** The spec's actions this replay does not perform, with the reasons (none: each is replayed, some cases stop: {@link #perform}). */
    static final Map<String, String> NOT_REPLAYABLE = Map.of();

    // ------------------------------------------------------------------ set-up

    /**
     * The metadata node is host 1, the one data node host 2 (the model's keys share one slot, so one
     * data node owns them all), clients hosts 3, ... (the writes, then the reads, in name order), the
     * switch OS the CPU port. The nodes start as in a rack: the metadata node rebuilds its (empty) index
     * from the data node, and the switch OS programs the switch and runs the resynchronisation.
     */
    @Override
    public void init(SpecStep initial) {
        // Slots = 1..n arrives as a sequence (TLC prints such functions as tuples)
        int slots = initial.var("sw") instanceof List<?> l ? l.size() : ((TlaFunction) initial.var("sw")).mapping().size();
        if (slots != 1 || !(initial.var("sw") instanceof List<?>)) {
            throw new NotReplayable("the model has " + slots + " switch slots; the replay knows only MCVisibility's "
                    + "key layout (every key in slot 1, fingerprint 7): SlotOf and FpOf are constants no trace carries");
        }
        slot = 1;
        for (String k : TlaValues.domainNames(initial.var("idx"))) {
            byte[] key = InnetMessage.key(k);
            keyBytes.put(k, key);
            keyOfHex.put(HexFormat.of().formatHex(key), k);
        }
        roles = new RackRoles(METADATA_NODE, List.of(DATA_NODE), key -> new VisExt((int) slot, MODEL_FINGERPRINT),
                TIMEOUT_NANOS);
        writes.addAll(TlaValues.domainNames(initial.var("dlog")));
        reads.addAll(TlaValues.domainNames(initial.var("rd")));
        int host = FIRST_CLIENT;
        List<Integer> hosts = new ArrayList<>(List.of(METADATA_NODE, DATA_NODE));
        for (String w : writes) {
            addClient(w, true, host++, hosts);
        }
        for (String r : reads) {
            addClient(r, false, host++, hosts);
        }
        hosts.add(SWITCH_OS);
        dataContext = new ReplayContext(DATA_NODE, DATA_NODE);
        dataNode = nodes.dataNodes().apply(roles);
        dataNode.onStart(dataContext);
        metadataContext = new ReplayContext(METADATA_NODE, METADATA_NODE);
        metadataNode = nodes.metadataNodes().apply(roles);
        metadataNode.onStart(metadataContext);
        osContext = new ReplayContext(SWITCH_OS, SWITCH_OS);
        switchOs = new VisibilitySwitchOs(roles, hosts, handle, 200_000, STALE_SCAN_NANOS, nodes.resyncs());
        switchOs.onStart(osContext);
        collect();
        resynchronise();
    }

    private void addClient(String op, boolean write, int host, List<Integer> hosts) {
        Client c = new Client(op, write, new ReplayContext(host, host), roles);
        clientOfOp.put(op, c);
        clientOfHost.put(host, c);
        hosts.add(host);
    }

    // ------------------------------------------------------------------ actions

    @Override
    public void perform(SpecStep before, SpecStep step) {
        List<Object> args = argList(step);
        boolean dup = Boolean.TRUE.equals(step.param("dup"));
        switch (step.actionName()) {
            case "InvokeWrite" -> invoke(name(args.get(0)), name(args.get(1)));
            case "InvokeRead" -> invoke(name(args.get(0)), name(args.get(1)));
            case "DnWrite" -> toNode("DnWrite", Route.DATA_NODE, pattern("WReq", "w", args.get(0)), dup);
            case "SwWriteReply" -> throughSwitch("SwWriteReply", pattern("WRep", "w", args.get(0), "ts", args.get(2)),
                    DATA_NODE, dup);
            case "ClientCommit" -> toClient(before, "ClientCommit", pattern("WAck", "w", args.get(0)), dup);
            case "ClientFallback" -> toClient(before, "ClientFallback", pattern("WFb", "w", args.get(0)), dup);
            case "MdnUpdate" -> toNode("MdnUpdate", Route.METADATA_NODE, pattern("MReq", "w", args.get(0), "ts", args.get(1)), dup);
            case "SwMetaReply" -> throughSwitch("SwMetaReply", pattern("MRep", "w", recordArg(step, "w"), "ts",
                    recordArg(step, "ts")), METADATA_NODE, dup);
            case "MdnDefer" -> toNode("MdnDefer", Route.METADATA_NODE, pattern("MUpd", "w", args.get(0), "ts", args.get(1)), dup);
            case "MdnBatch" -> fireTimer("MdnBatch", metadataContext, metadataNode, metadataNode.batchTimer());
            case "SwClear" -> throughSwitch("SwClear", consumed(before, step, "Clr", recordArg(step, "ts")), METADATA_NODE, dup);
            case "MdnClrAck" -> toNode("MdnClrAck", Route.METADATA_NODE, pattern("ClrAck", "key", args.get(0), "ts", args.get(1)), dup);
            case "SwRead" -> throughSwitch("SwRead", pattern("RReq", "r", args.get(0)), hostOf(name(args.get(0))), dup);
            case "MdnRead" -> toNode("MdnRead", Route.METADATA_NODE, pattern("MRead", "r", args.get(0)), dup);
            case "DnRead" -> dataRead(before, step, name(args.get(0)), args.get(1), dup);
            case "ClientReadDone" -> readReply(before, "ClientReadDone", "RRep", name(args.get(0)), args.get(1), dup);
            case "ClientReadRetry" -> readReply(before, "ClientReadRetry", "RNack", name(args.get(0)), null, dup);
            case "ClientWriteTimeout", "ClientReadTimeout" -> clientTimeout(step.actionName(), name(args.get(0)));
            case "MdnClearTimeout" -> fireTimer("MdnClearTimeout", metadataContext, metadataNode,
                    metadataNode.clearTimer((int) slot, asLong(args.get(1))));
            case "SwStaleTimeout" -> staleScan();
            case "Lose" -> lose(before, asRecord(args.get(0)));
            case "MdnCrash" -> restartMetadataNode();
            case "SwCrash" -> {
                handle.detach();
                target.crash();
            }
            case "SwResync" -> resynchronise();
            default -> throw new NotReplayable("no replay of action " + step.actionName());
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Object> argList(SpecStep step) {
        Object args = step.param("args");
        return args instanceof List<?> l ? (List<Object>) l : List.of();
    }

    /** A field of the action's record-valued args (SwMetaReply and SwClear record [w, ts, cleared]). */
    private static Object recordArg(SpecStep step, String field) {
        return asRecord(step.param("args")).get(field);
    }

    private static Map<String, Object> pattern(String type, Object... fieldsAndValues) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", type);
        for (int i = 0; i < fieldsAndValues.length; i += 2) {
            p.put((String) fieldsAndValues[i], fieldsAndValues[i + 1]);
        }
        return p;
    }

    /**
     * The message of {@code type} with timestamp {@code ts} the step consumed (SwClear's parameters do not
     * name the key): the only such message in flight, or the one that left the network in the step.
     */
    private static Map<String, Object> consumed(SpecStep before, SpecStep step, String type, Object ts) {
        List<Map<String, Object>> candidates = new ArrayList<>();
        for (Object o : (Set<?>) before.var("net")) {
            Map<String, Object> m = asRecord(o);
            if (m.get("type").equals(type) && m.get("ts").equals(ts)) {
                candidates.add(m);
            }
        }
        if (candidates.size() > 1) {
            candidates.removeIf(m -> ((Set<?>) step.var("net")).contains(m));
        }
        if (candidates.size() != 1) {
            throw new NotReplayable("cannot tell which " + type + " with ts " + ts + " the step delivers: " + candidates);
        }
        return candidates.get(0);
    }

    private int hostOf(String op) {
        return clientOfOp.get(op).ctx.hostNumber();
    }

    private void invoke(String op, String key) {
        Client c = clientOfOp.get(op);
        c.key = key;
        c.state = c.write ? "data" : "pending";
        if (c.write) {
            c.library.put(keyBytes.get(key), op.getBytes(StandardCharsets.US_ASCII), r -> c.result = r);
        } else {
            c.library.get(keyBytes.get(key), r -> c.result = r);
        }
        collect();
    }

    /**
     * A write's acknowledgement or fallback notice reaches its client. The spec's may be a dead message
     * the implementation never sent (a copy the spec's duplicate or re-send produced for an operation
     * past that point, see {@link #dataRead}): taking it then changes nothing that is compared.
     */
    private void toClient(SpecStep before, String action, Map<String, Object> pattern, boolean dup) {
        if (deadAndAbsent(before, pattern)) {
            return;
        }
        toNode(action, Route.CLIENT, pattern, dup);
    }

    /** A loss; of a dead message the implementation never sent, nothing (the comparison ignores dead messages). */
    private void lose(SpecStep before, Map<String, Object> message) {
        if (!deadAndAbsent(before, message)) {
            net.lose(message);
        }
    }

    /** Whether the spec's message is dead in {@code before} and no frame in flight is it. */
    private boolean deadAndAbsent(SpecStep before, Map<String, Object> pattern) {
        String type = (String) pattern.get("type");
        Object op = type.equals("RRep") || type.equals("RNack") ? pattern.get("r") : pattern.get("w");
        if (op == null || op.equals(NO_W) || !dead(type, specState(before, type, op))) {
            return false;
        }
        for (Map<String, Object> m : net.messages()) {
            if (ReplayNetwork.matches(m, pattern)) {
                return false;
            }
        }
        return true;
    }

    /** wr[w].st for a write's message, rd[r].st for a read's, in {@code state}; null for other messages. */
    private static String specState(SpecStep state, String type, Object op) {
        return switch (type) {
            case "WAck", "WFb" -> (String) asRecord(((TlaFunction) state.var("wr")).apply(op)).get("st");
            case "RRep", "RNack" -> (String) asRecord(((TlaFunction) state.var("rd")).apply(op)).get("st");
            default -> null;
        };
    }

    /** Hands the message in flight to the node it is addressed to; whatever the node sends is in flight next. */
    private void toNode(String action, Route route, Map<String, Object> pattern, boolean dup) {
        ReplayNetwork.Flight<Route> f = net.take(action, route, pattern, dup);
        deliver(relay(action, f.frame()));
        collect();
    }

    /**
     * A message the switch does not act on, on its way to its receiver: while the switch is up and
     * resynchronised it must forward it unchanged in what the receiver reads (out of the receiver's
     * port); while it is down or not yet resynchronised the spec's hosts still talk to each other, so
     * the frame is handed over directly (the real switch would forward nothing then).
     */
    private byte[] relay(String action, byte[] frame) {
        if (emittedBySwitch.contains(frame) || !handle.isUp()
                || target.control().registerRead(SwitchNames.READY, 0).signum() == 0) {
            return frame;
        }
        InnetPacket p = decode(frame);
        int from = RackAddressing.hostOfIp(p.frame().srcIp());
        int to = RackAddressing.hostOfIp(p.frame().dstIp());
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(from), frame);
        if (out.size() != 1 || out.get(0).port() != RackPorts.portOf(to)) {
            throw new ReplayException(action + ": the switch did not forward op 0x" + Integer.toHexString(p.message().op())
                    + " from host " + from + " to host " + to + " alone (it emitted " + out.size() + " frames)");
        }
        if (!decode(out.get(0).frame()).message().equals(p.message())) {
            throw new ReplayException(action + ": the switch changed the message it forwards: " + p.message() + " became "
                    + decode(out.get(0).frame()).message());
        }
        return out.get(0).frame();
    }

    /**
     * The message goes into the switch from {@code fromHost}'s port; what the switch emits is in flight
     * next (a write's acknowledgement or fallback notice, an asynchronous update, a metadata reply, a
     * clear's acknowledgement, a read answered from the entry or forwarded).
     */
    private void throughSwitch(String action, Map<String, Object> pattern, int fromHost, boolean dup) {
        ReplayNetwork.Flight<Route> f = net.take(action, Route.SWITCH, pattern, dup);
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(fromHost), f.frame());
        if (out.isEmpty()) {
            throw new ReplayException(action + ": the switch dropped " + f.message());
        }
        for (ReplayTarget.Emitted e : out) {
            InnetPacket p = decode(e.frame());
            int to = RackAddressing.hostOfIp(p.frame().dstIp());
            if (e.port() != RackPorts.portOf(to)) {
                throw new ReplayException(action + ": the switch sent a frame for host " + to + " out of port " + e.port());
            }
            if (p.message().op() == VisOp.META_HELD) {
                throw new ReplayException(action + ": the switch held back " + f.message()
                        + " (META_HELD to the metadata node), where the spec passes it");
            }
            emittedBySwitch.add(e.frame());
            put(e.frame(), true);
        }
    }

    /**
     * The spec's DnRead: the metadata reply in flight (a spec DRead) reaches the read's client, whose
     * DATA_READ the data node answers (RRep, or RNack when the entry holds another key).
     */
    private void dataRead(SpecStep before, SpecStep step, String r, Object w, boolean dup) {
        ReplayNetwork.Flight<Route> f = net.take("DnRead", Route.CLIENT, pattern("DRead", "r", new ModelValue(r), "w", w), dup);
        Client c = clientOfOp.get(r);
        c.library.onPacket(relay("DnRead", f.frame()));
        List<byte[]> sent = c.ctx.takeSent();
        if (sent.isEmpty()) {
            // The client is past its lookup and ignores this reply (a duplicate, or an earlier attempt's). The
            // spec's data node answers it anyway; that is the same step when its answer is dead (the read is
            // done) or merges with an identical answer already in flight.
            boolean done = "done".equals(asRecord(((TlaFunction) before.var("rd")).apply(new ModelValue(r))).get("st"));
            Set<Object> added = new LinkedHashSet<>((Set<?>) step.var("net"));
            added.removeAll((Set<?>) before.var("net"));
            if (!done && !added.isEmpty()) {
                throw new NotReplayable("DnRead: read " + r + "'s client is past its metadata lookup and ignores this metadata "
                        + "reply (a duplicate, or the answer to an earlier attempt); the spec's data node answers it with "
                        + added + ", which the pending read may still take");
            }
            collect();
            return;
        }
        for (byte[] frame : sent) {
            InnetPacket p = decode(frame);
            if (p.message().op() != VisOp.DATA_READ) {
                throw new ReplayException("DnRead: read " + r + "'s client answered the metadata reply with op "
                        + p.message().op() + ", not DATA_READ");
            }
            c.readingData = true;
            deliver(relay("DnRead", frame));
        }
        collect();
    }

    /** A read's client gets its answer (RRep) or its failed validation (RNack). */
    private void readReply(SpecStep before, String action, String type, String r, Object w, boolean dup) {
        Map<String, Object> p = w == null ? pattern(type, "r", new ModelValue(r)) : pattern(type, "r", new ModelValue(r), "w", w);
        if (deadAndAbsent(before, p)) {
            return;
        }
        ReplayNetwork.Flight<Route> f = net.take(action, Route.CLIENT, p, dup);
        Client c = clientOfOp.get(r);
        boolean pending = "pending".equals(asRecord(((TlaFunction) before.var("rd")).apply(new ModelValue(r))).get("st"));
        boolean dataReply = decode(f.frame()).message().op() == VisOp.DATA_READ_REPLY;
        if (pending && dataReply != c.readingData) {
            throw new NotReplayable(action + ": read " + r + "'s client waits for its " + (c.readingData ? "data" : "metadata")
                    + " reply and ignores this " + (dataReply ? "data" : "metadata") + " reply of an earlier attempt, "
                    + "which the spec's client takes");
        }
        deliver(relay(action, f.frame()));
        collect();
    }

    /** The client's retransmission timer fires: it re-sends the request of the phase it is in. */
    private void clientTimeout(String action, String op) {
        Client c = clientOfOp.get(op);
        if (!c.write && c.readingData) {
            throw new NotReplayable(action + ": read " + op + "'s client is in its data phase and re-sends DATA_READ to the "
                    + "data node; the spec's client re-sends the READ (a new metadata lookup)");
        }
        List<Long> timers = c.ctx.pendingTimers();
        if (timers.size() != 1) {
            throw new ReplayException(action + ": " + op + "'s client has " + timers.size() + " timers pending, not its one "
                    + "retransmission timer");
        }
        c.ctx.fire(timers.get(0));
        c.library.onTimer(timers.get(0));
        collect();
    }

    private void fireTimer(String action, ReplayContext ctx, Node node, long timer) {
        if (timer < 0 || !ctx.fire(timer)) {
            throw new ReplayException(action + ": the metadata node has no such timer pending");
        }
        node.onTimer(timer);
        collect();
    }

    /**
     * The switch OS's stale-entry scan, twice, one scan period apart: an entry valid with the same CurTs
     * at both is stale, and its data node re-sends the entry's asynchronous update to the metadata node.
     */
    private void staleScan() {
        for (int i = 0; i < 2; i++) {
            osContext.advance(STALE_SCAN_NANOS);
            pollSwitchOs();
        }
    }

    private void pollSwitchOs() {
        for (long timer : osContext.pendingTimers()) {
            if (osContext.fire(timer)) {
                switchOs.onTimer(timer);
            }
        }
        collect();
    }

    /** The metadata node crashes and a new instance rebuilds its index from the data node's log. */
    private void restartMetadataNode() {
        metadataContext.restart();
        metadataNode = nodes.metadataNodes().apply(roles);
        metadataNode.onStart(metadataContext);
        collect();
    }

    /**
     * A (new) switch is attached and the switch OS's loop notices it: forwarding, the clone session, the
     * metadata node's host, then the resynchronisation (the metadata node drains and rebuilds, MaxTs is
     * reloaded from the data node's timestamp sources, vis_ready = 1).
     */
    private void resynchronise() {
        handle.attach(target.control());
        resyncing = true;
        try {
            pollSwitchOs();
        } finally {
            resyncing = false;
        }
        if (target.control().registerRead(SwitchNames.READY, 0).signum() == 0) {
            throw new ReplayException("the switch OS did not finish the resynchronisation (vis_ready is still 0)");
        }
    }

    // ------------------------------------------------------------------ frames

    private void deliver(byte[] frame) {
        int to = RackAddressing.hostOfIp(decode(frame).frame().dstIp());
        if (to == METADATA_NODE) {
            metadataNode.onPacket(frame);
        } else if (to == DATA_NODE) {
            dataNode.onPacket(frame);
        } else if (to == SWITCH_OS) {
            switchOs.onPacket(frame);
        } else if (clientOfHost.containsKey(to)) {
            clientOfHost.get(to).library.onPacket(frame);
        } else {
            throw new ReplayException("a frame for host " + to + ", which the replay does not run");
        }
    }

    /**
     * Everything the nodes sent: recovery traffic (rebuild, timestamps, resync, stale re-send requests),
     * which the spec folds into its crash and timeout steps, is delivered at once; every other message is
     * in flight as the spec message it is.
     */
    private void collect() {
        boolean more = true;
        while (more) {
            more = false;
            List<ReplayContext> all = new ArrayList<>(List.of(metadataContext, dataContext, osContext));
            for (Client c : clientOfOp.values()) {
                all.add(c.ctx);
            }
            for (ReplayContext ctx : all) {
                for (byte[] frame : ctx.takeSent()) {
                    more = true;
                    route(frame);
                }
            }
        }
    }

    private void route(byte[] frame) {
        InnetMessage m = decode(frame).message();
        switch (m.op()) {
            case VisOp.REBUILD, VisOp.REBUILD_ENTRIES, VisOp.REBUILD_END, VisOp.TIMESTAMPS, VisOp.TIMESTAMP_ENTRIES,
                    VisOp.TIMESTAMPS_END, VisOp.RESYNC, VisOp.RESYNC_DONE, VisOp.RESEND_ASYNC -> deliver(frame);
            case VisOp.CLEAR -> {
                if (resyncing) {
                    // drained during the resynchronisation: the switch is not ready yet and must drop it (Z1)
                    List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(METADATA_NODE), frame);
                    if (!out.isEmpty()) {
                        throw new ReplayException("SwResync: a CLEAR drained by the metadata node passed a switch that is "
                                + "not resynchronised yet");
                    }
                } else {
                    put(frame, false);
                }
            }
            default -> put(frame, false);
        }
    }

    private void put(byte[] frame, boolean passedSwitch) {
        Map<String, Object> m = specMessageOf(frame, passedSwitch);
        InnetPacket p = decode(frame);
        Client sender = clientOfHost.get(RackAddressing.hostOfIp(p.frame().srcIp()));
        if (sender != null && !passedSwitch) {
            switch (p.message().op()) {
                case VisOp.WRITE -> sender.state = "data";
                case VisOp.META_UPDATE -> {
                    sender.state = "meta";
                    sender.metaTs = p.message().seq();
                }
                case VisOp.READ -> sender.readingData = false;
                default -> { }
            }
        }
        net.put(m, routeOf((String) m.get("type")), frame);
    }

    private static Route routeOf(String type) {
        return switch (type) {
            case "WReq" -> Route.DATA_NODE;
            case "MReq", "MRead", "MUpd", "ClrAck" -> Route.METADATA_NODE;
            case "WRep", "MRep", "RReq", "Clr" -> Route.SWITCH;
            default -> Route.CLIENT; // WAck, WFb, DRead (the metadata reply on its way to the client), RRep, RNack
        };
    }

    /**
     * The spec message a frame is. {@code passedSwitch}: the frame came out of the switch (a WRITE_REPLY is
     * then WAck or WFb, a META_UPDATE_REPLY WAck, a READ the forwarded MRead).
     */
    private Map<String, Object> specMessageOf(byte[] frame, boolean passedSwitch) {
        InnetPacket p = decode(frame);
        InnetMessage m = p.message();
        UdpFrame f = p.frame();
        int src = RackAddressing.hostOfIp(f.srcIp());
        int dst = RackAddressing.hostOfIp(f.dstIp());
        ModelValue key = new ModelValue(keyName(m.key()));
        long ts = m.seq();
        return switch (m.op()) {
            case VisOp.WRITE -> msg("WReq", opOf(src), NO_W, key, 0);
            case VisOp.WRITE_REPLY -> msg(!passedSwitch ? "WRep" : (m.flags() & VisOp.FLAG_VISIBLE) != 0 ? "WAck" : "WFb",
                    opOf(dst), NO_W, key, ts);
            case VisOp.META_ASYNC -> msg("MUpd", writeAt(m.value()), NO_W, key, ts);
            case VisOp.META_UPDATE -> msg("MReq", opOf(src), NO_W, key, ts);
            case VisOp.META_UPDATE_REPLY -> msg(passedSwitch ? "WAck" : "MRep", opOf(dst), NO_W, key, ts);
            case VisOp.CLEAR -> msg("Clr", NO_W, NO_W, key, ts);
            case VisOp.CLEAR_ACK -> msg("ClrAck", NO_W, NO_W, key, ts);
            case VisOp.READ -> msg(passedSwitch ? "MRead" : "RReq", NO_W, opOf(src), key, 0);
            case VisOp.READ_REPLY -> switch (m.status()) {
                case VisOp.STATUS_NOT_FOUND -> msg("RRep", NO_W, opOf(dst), key, 0);
                case VisOp.STATUS_OK -> msg("DRead", writeAt(m.value()), opOf(dst), key, 0);
                default -> throw new ReplayException("the metadata node answered a READ with status " + m.status());
            };
            case VisOp.DATA_READ_REPLY -> switch (m.status()) {
                case VisOp.STATUS_OK -> msg("RRep", writeOfValue(m.value()), opOf(dst), key, 0);
                case VisOp.STATUS_KEY_MISMATCH -> msg("RNack", NO_W, opOf(dst), key, 0);
                default -> throw new ReplayException("the data node answered a DATA_READ with status " + m.status());
            };
            case VisOp.META_HELD -> throw new ReplayException("the switch held back a META_UPDATE_REPLY (META_HELD)");
            default -> throw new ReplayException("a node sent op 0x" + Integer.toHexString(m.op()) + ", which is no spec message");
        };
    }

    private static Map<String, Object> msg(String type, ModelValue w, ModelValue r, ModelValue key, long ts) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        m.put("w", w);
        m.put("r", r);
        m.put("key", key);
        m.put("ts", ts);
        return m;
    }

    private static InnetPacket decode(byte[] frame) {
        try {
            return InnetPacket.decode(frame);
        } catch (WireException e) {
            throw new ReplayException("the implementation emitted a malformed frame: " + e.getMessage());
        }
    }

    private String keyName(byte[] key) {
        String k = keyOfHex.get(HexFormat.of().formatHex(key));
        if (k == null) {
            throw new ReplayException("a message names key " + HexFormat.of().formatHex(key) + ", which is no spec key");
        }
        return k;
    }

    private ModelValue opOf(int host) {
        Client c = clientOfHost.get(host);
        if (c == null) {
            throw new ReplayException("a client message from or to host " + host + ", which runs no spec operation");
        }
        return new ModelValue(c.op);
    }

    /** The spec write whose log entry is at {@code address} (the spec's log address of a write is the write). */
    private ModelValue writeAt(byte[] address) {
        LogAddress a = LogAddress.decodeOrNull(address);
        if (a == null || a.dataNode() != DATA_NODE) {
            throw new ReplayException("metadata that is no log address of the data node: " + HexFormat.of().formatHex(address));
        }
        List<LogEntry> log = dataNode.logEntries();
        if (a.position() < 0 || a.position() >= log.size()) {
            throw new ReplayException("metadata names log position " + a.position() + ", beyond the log's " + log.size());
        }
        return writerOf(log.get((int) a.position()));
    }

    private ModelValue writerOf(LogEntry e) {
        return opOf(RackAddressing.hostOfIp(e.clientIp()));
    }

    private ModelValue writeOfValue(byte[] value) {
        String w = new String(value, StandardCharsets.US_ASCII);
        if (!writes.contains(w)) {
            throw new ReplayException("a read returned value '" + w + "', which no spec write wrote");
        }
        return new ModelValue(w);
    }

    // ------------------------------------------------------------------ the refinement mapping

    @Override
    public Map<String, Object> observe() {
        Map<String, Object> o = new LinkedHashMap<>();
        Set<Object> live = new LinkedHashSet<>();
        for (Map<String, Object> m : net.messages()) {
            String type = (String) m.get("type");
            String st = switch (type) {
                case "WAck", "WFb" -> stateOf(clientOfOp.get(name(m.get("w"))));
                case "RRep", "RNack" -> stateOf(clientOfOp.get(name(m.get("r"))));
                default -> null;
            };
            if (!dead(type, st)) {
                live.add(m);
            }
        }
        o.put("net", live); // compared without dead messages (projectSpec)
        List<LogEntry> log = dataNode.logEntries();
        Map<Object, Object> dlog = new LinkedHashMap<>();
        for (String w : writes) {
            dlog.put(new ModelValue(w), rec("key", NO_KEY, "ts", 0L));
        }
        long lastTs = 0;
        for (LogEntry e : log) {
            // a write appended twice (re-stamped) is known by its newest entry, as the spec's dlog[w]
            dlog.put(writerOf(e), rec("key", new ModelValue(keyName(e.key())), "ts", e.ts()));
            if (e.ext().index() == slot) {
                lastTs = Math.max(lastTs, e.ts());
            }
        }
        o.put("dlog", new TlaFunction(dlog));
        o.put("tsGen", List.of(lastTs)); // functions of 1..1 are sequences, as in the spec's states
        SwitchControl control = target.control();
        o.put("sw", List.of(entry(control, log)));
        o.put("maxTs", List.of(control.registerRead(SwitchNames.MAX_TS, (int) slot).longValue()));
        o.put("swUp", handle.isUp() && control.registerRead(SwitchNames.READY, 0).signum() != 0);
        Map<Object, Object> idx = new LinkedHashMap<>();
        for (String k : keyBytes.keySet()) {
            idx.put(new ModelValue(k), rec("w", NO_W, "ts", 0L));
        }
        for (IndexRecord r : metadataNode.indexRecords()) {
            idx.put(new ModelValue(keyName(r.key())), rec("w", writeAt(r.address().encode()), "ts", r.ts()));
        }
        o.put("idx", new TlaFunction(idx));
        Set<Object> deferred = new LinkedHashSet<>();
        for (IndexRecord r : metadataNode.deferredUpdates()) {
            deferred.add(rec("w", writeAt(r.address().encode()), "key", new ModelValue(keyName(r.key())), "ts", r.ts()));
        }
        o.put("deferred", deferred);
        Set<Object> pendClr = new LinkedHashSet<>();
        for (MetadataNode.PendingClear c : metadataNode.pendingClears()) {
            pendClr.add(rec("key", keyOfEntry(log, c.slot(), c.ts()), "ts", c.ts()));
        }
        o.put("pendClr", pendClr);
        Map<Object, Object> wr = new LinkedHashMap<>();
        Map<Object, Object> rd = new LinkedHashMap<>();
        for (Client c : clientOfOp.values()) {
            if (c.write) {
                String st = c.result == null ? c.state : c.result.outcome() == KvResult.Outcome.OK ? "done" : "failed: " + c.result;
                wr.put(new ModelValue(c.op), rec("st", st, "ts", "meta".equals(st) ? c.metaTs : 0L));
            } else {
                String st = c.result == null ? c.state : "done";
                rd.put(new ModelValue(c.op), rec("st", st, "val", readValue(c)));
            }
        }
        o.put("wr", new TlaFunction(wr));
        o.put("rd", new TlaFunction(rd));
        return o;
    }

    /** The client's operation as the spec's wr[w].st / rd[r].st. */
    private static String stateOf(Client c) {
        if (c.result == null) {
            return c.state;
        }
        return c.result.outcome() == KvResult.Outcome.OK || !c.write ? "done" : "failed: " + c.result;
    }

    /** The spec's key of the clear (slot, ts): the key of the log entry stamped ts in that slot. */
    private Object keyOfEntry(List<LogEntry> log, int clearSlot, long ts) {
        for (LogEntry e : log) {
            if (e.ext().index() == clearSlot && e.ts() == ts) {
                return new ModelValue(keyName(e.key()));
            }
        }
        return "no log entry has ts " + ts;
    }

    private Object readValue(Client c) {
        if (c.result == null) {
            return NO_W;
        }
        return switch (c.result.outcome()) {
            case OK -> writeOfValue(c.result.value());
            case NOT_FOUND -> NO_W;
            default -> "read failed: " + c.result;
        };
    }

    /** The switch entry of the slot: NoEntry while invalid (the spec's clear empties it), else its registers. */
    private Map<String, Object> entry(SwitchControl control, List<LogEntry> log) {
        int s = (int) slot;
        if (control.registerRead(SwitchNames.VALID, s).signum() == 0) {
            return rec("valid", false, "fp", 0L, "key", NO_KEY, "w", NO_W, "ts", 0L);
        }
        LogAddress a = LogAddress.fromSwitchWords(control.registerRead(SwitchNames.META_WORD_0, s).longValue(),
                control.registerRead(SwitchNames.META_WORD_1, s).longValue());
        Object key = "metadata " + a + " names no log entry";
        Object w = key;
        if (a.dataNode() == DATA_NODE && a.position() >= 0 && a.position() < log.size()) {
            LogEntry e = log.get((int) a.position());
            key = new ModelValue(keyName(e.key()));
            w = writerOf(e);
        }
        return rec("valid", true, "fp", control.registerRead(SwitchNames.FINGERPRINT, s).longValue(), "key", key, "w", w,
                "ts", control.registerRead(SwitchNames.CUR_TS, s).longValue());
    }

    private static Map<String, Object> rec(Object... fieldsAndValues) {
        Map<String, Object> r = new LinkedHashMap<>();
        for (int i = 0; i < fieldsAndValues.length; i += 2) {
            r.put((String) fieldsAndValues[i], fieldsAndValues[i + 1]);
        }
        return r;
    }

    /**
     * wr[w] is compared as its state and, in the second phase, the timestamp the client sends (the
     * commit clock is history); rd[r] as its state and the value returned (the start clock is history).
     */
    @Override
    public Object projectSpec(String var, SpecStep state) {
        if (!var.equals("net")) {
            return projectSpec(var, state.var(var));
        }
        Set<Object> live = new LinkedHashSet<>();
        for (Object o : (Set<?>) state.var("net")) {
            Map<String, Object> m = asRecord(o);
            String type = (String) m.get("type");
            Object op = type.equals("RRep") || type.equals("RNack") ? m.get("r") : m.get("w");
            if (op.equals(NO_W) || !dead(type, specState(state, type, op))) {
                live.add(m);
            }
        }
        return live;
    }

    /**
     * MCVisibility's Dead(m), the models' VIEW: a message whose delivery can change nothing but the
     * network (an acknowledgement or fallback notice of a write already past that point, an answer to a
     * finished read). {@code net} is compared without them on both sides.
     */
    private static boolean dead(String type, String opState) {
        return switch (type) {
            case "WAck" -> "done".equals(opState);
            case "WFb" -> "meta".equals(opState) || "done".equals(opState);
            case "RRep", "RNack" -> "done".equals(opState);
            default -> false;
        };
    }

    @Override
    public Object projectSpec(String var, Object specValue) {
        return switch (var) {
            case "wr" -> project(specValue, w -> rec("st", w.get("st"), "ts", "meta".equals(w.get("st")) ? w.get("ts") : 0L));
            case "rd" -> project(specValue, r -> rec("st", r.get("st"), "val", r.get("val")));
            default -> specValue;
        };
    }

    private static TlaFunction project(Object function, Function<Map<String, Object>, Map<String, Object>> f) {
        Map<Object, Object> out = new LinkedHashMap<>();
        ((TlaFunction) function).mapping().forEach((k, v) -> out.put(k, f.apply(asRecord(v))));
        return new TlaFunction(out);
    }
}
