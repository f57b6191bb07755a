package dev.innet.lake.spec;

import static dev.innet.protocol.spec.TlaValues.asLong;
import static dev.innet.protocol.spec.TlaValues.asRecord;
import static dev.innet.protocol.spec.TlaValues.name;

import dev.innet.lake.LakeSlots;
import dev.innet.lake.client.LakeClient;
import dev.innet.lake.controller.LakeSwitchOs;
import dev.innet.lake.host.MemcachedBackend;
import dev.innet.lake.host.MemcachedHost;
import dev.innet.lake.wire.ByteString;
import dev.innet.lake.wire.McDatagram;
import dev.innet.lake.wire.McException;
import dev.innet.lake.wire.McOpcode;
import dev.innet.lake.wire.McRequest;
import dev.innet.lake.wire.McResponse;
import dev.innet.lake.wire.McStatus;
import dev.innet.lake.wire.MemcachedUdpCodec;
import dev.innet.protocol.ForwardingSwitchOs;
import dev.innet.protocol.KvResult;
import dev.innet.protocol.RackPorts;
import dev.innet.protocol.spec.ReplayContext;
import dev.innet.protocol.spec.ReplayNetwork;
import dev.innet.protocol.spec.ReplayProjections;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecReplay;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.protocol.spec.SpecStep.ModelValue;
import dev.innet.protocol.spec.SpecStep.TlaFunction;
import dev.innet.protocol.spec.TlaValues;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Lake.tla replayed on the implementation: p4/lake.p4 on the replay target, one {@link MemcachedHost}
 * (the simulator's memcached), a {@link LakeClient} per spec client and {@link LakeSwitchOs} bringing
 * up every (re)started device. Every frame between them is routed by this class, so the spec's choice of
 * which message is delivered or lost next is followed exactly (docs/conformance.md, "LaKe").
 *
 * <p>Keys: 16 bytes each (LaKe caches 16-byte keys), chosen so that two keys share a slot of a layer in
 * the data plane (CRC-32 hashes over 256 and 4096 slots) exactly when they share it in the spec. The
 * spec's slot maps H1 and H2 are constants, which a behaviour does not carry; the replay assumes the
 * convention every LaKe model follows: a key's slot in a layer is its index among the keys in name
 * order, modulo the layer's size (read off the domain of {@code cache}). A model breaking it fails the
 * replay at the first fill ({@code cache} differs), never silently.
 *
 * <p>Values: write id w is the 32-byte value {@code lake-write-<w>} (LaKe caches 32-byte values); every
 * key is loaded into memcached with write 0 before the replay starts (the spec's initial store), so
 * memcached's CAS of write w is the spec's version of w plus the number of keys.
 *
 * <p>Tags: generation g of the device numbers from {@link LakeSwitchOs#tagBase}(g); the spec keeps one
 * counter across resets. An implementation tag {@code base(g) + i} is the spec's {@code serialAt(g) + i},
 * where serialAt(g) is the last tag issued before g's reset (0 for the first device). The map is
 * monotonic, so every fence comparison of LK-5/LK-6 comes out the same on both sides.
 */
public final class LakeReplay implements SpecReplay {
    private static final int HOST = 1;
    private static final int FIRST_CLIENT = 2;
    private static final int SWITCH_OS = RackPorts.CONTROLLER_HOST;
    private static final int CLIENT_PORT = 40000;
    private static final int KEY_BYTES = LakeSwitchOs.KEY_BYTES;
    private static final int VALUE_BYTES = 32;
    private static final String VALUE_PREFIX = "lake-write-";
    private static final int LUT_SLOTS = 1024;
    /** Candidate key bytes tried per key before the replay gives up finding the spec's slot sharing. */
    private static final int MAX_KEY_CANDIDATES = 50_000_000;
    private static final long CLIENT_TIMEOUT_NANOS = 1_000_000;
    private static final long SWITCH_OS_POLL_NANOS = 200_000;
    private static final String STATS = "MyIngress.lake_stats";
    private static final Map<String, Object> EMPTY_ENTRY = entry("none", 0, false);

    /**
     * Why memcached restarts are not replayed: the conformance models have one memcached host and no
     * restart (MaxRestart = 0), and this replay drives one memcached loaded with every key. A restart
     * would also need what the replay does not map: memcached's CAS counter starting again (the spec's
     * casCtr goes on), and an absent item, which the spec writes as value 0 and may fill from a GET reply,
     * while lake.p4 fills nothing from a NOT_FOUND. The forget is tested on lake.p4 directly
     * (LakeForgetServerTest) and on live racks (LiveLakeRackTest).
     */
    private static final String MEMCACHED_RESTARTS_NOT_REPLAYED = "memcached restarts are in the MCLakeRestart* "
            + "models only (the conformance models have one memcached and MaxRestart = 0; the replay maps neither a "
            + "restarted CAS counter nor an absent item); LakeSwitchOs.forgetServer is tested by LakeForgetServerTest "
            + "and LiveLakeRackTest";

    /** The spec's actions this replay does not perform, with the reasons. */
    static final Map<String, String> NOT_REPLAYABLE = Map.of("HostWriteBack",
            "enabled only by BugWriteBack: LaKe writes through, the implementation never writes a value back",
            "HostCrash", MEMCACHED_RESTARTS_NOT_REPLAYED,
            "DeadHostDrop", MEMCACHED_RESTARTS_NOT_REPLAYED,
            "SwitchForget", MEMCACHED_RESTARTS_NOT_REPLAYED,
            "HostStart", MEMCACHED_RESTARTS_NOT_REPLAYED);

    /** Where a frame in flight is going. */
    private enum Route {
        /** A request LaKe forwarded, on its way to memcached. */
        TO_HOST,
        /** memcached's reply, not yet through LaKe (which acts on it in the step that delivers it). */
        HOST_TO_SWITCH
    }

    /** Builds the switch OS the replay runs (tests substitute one with a seeded bug). */
    @FunctionalInterface
    public interface SwitchOsFactory {
        ForwardingSwitchOs create(List<Integer> hosts, SwitchHandle handle, long pollNanos);
    }

    /** A device incarnation: its first implementation tag and the spec's serial when it started. */
    private record Incarnation(long implBase, long specBase) {}

    /** A request LaKe forwarded, by its implementation tag: what its reply stands for in the spec. */
    private record Forwarded(ModelValue client, ModelValue key, long id) {}

    private final ReplayTarget target;
    private final SwitchOsFactory switchOses;
    private final SwitchHandle handle = new SwitchHandle();
    private final Map<String, byte[]> keyBytes = new TreeMap<>();
    private final Map<ByteString, String> keyOfBytes = new HashMap<>();
    /** Spec slot {@code <<layer, i>>} -> the data plane's slot in that layer (only slots some key hashes to). */
    private final Map<List<Long>, Integer> implSlot = new LinkedHashMap<>();
    private final List<List<Long>> specSlots = new ArrayList<>();
    private final Map<String, Integer> hostOfClient = new TreeMap<>();
    private final Map<Integer, String> clientOfHost = new HashMap<>();
    private final Map<String, ReplayContext> clientContexts = new HashMap<>();
    private final Map<String, LakeClient> clients = new HashMap<>();
    /** Per client host: memcached request id of a GET -> the spec's read id. */
    private final Map<Integer, Map<Integer, Long>> readOfRequest = new HashMap<>();
    private final Map<Long, Forwarded> forwarded = new HashMap<>();
    private final ReplayNetwork<Route> net = new ReplayNetwork<>();
    private final List<Incarnation> incarnations = new ArrayList<>();
    /** wver: per write id, its version as memcached reported it in the SET's reply (0 before). */
    private final List<Long> writeVersions = new ArrayList<>();
    /** doneMax: per key, the largest version of a SET a client was told succeeded. */
    private final Map<String, Long> acknowledged = new TreeMap<>();
    /** floorOf: per client, doneMax of its operation's key when it began (0 while idle). */
    private final Map<String, Long> floors = new TreeMap<>();
    private Map<String, Object> lastRead = readRecord(0, 0);
    private ReplayContext hostContext;
    private ReplayContext switchOsContext;
    private MemcachedHost host;
    private ForwardingSwitchOs switchOs;

    public LakeReplay(ReplayTarget target) {
        this(target, LakeSwitchOs::new);
    }

    /** @param switchOses the switch OS to replay (tests pass one with a seeded bug) */
    public LakeReplay(ReplayTarget target, SwitchOsFactory switchOses) {
        this.target = target;
        this.switchOses = switchOses;
    }

    // ------------------------------------------------------------------ set-up

    /**
     * memcached is host 1, clients are hosts 2, 3, ... in name order, the switch OS the CPU port. Every
     * key is stored in memcached with write 0 first (the spec's initial store), as a load phase would.
     */
    @Override
    public void init(SpecStep initial) {
        List<String> keys = TlaValues.domainNames(initial.var("store"));
        int l1Size = 0;
        int l2Size = 0;
        for (Object s : ((TlaFunction) initial.var("cache")).mapping().keySet()) {
            List<Long> slot = slot(s);
            specSlots.add(slot);
            if (slot.get(0) == 1) {
                l1Size++;
            } else {
                l2Size++;
            }
        }
        chooseKeys(keys, l1Size, l2Size);
        int h = FIRST_CLIENT;
        for (String c : TlaValues.domainNames(initial.var("pend"))) {
            hostOfClient.put(c, h);
            clientOfHost.put(h, c);
            floors.put(c, 0L);
            h++;
        }
        for (Object ignored : sequence(initial.var("wver"))) {
            writeVersions.add(0L);
        }
        List<Integer> hosts = new ArrayList<>(List.of(HOST));
        hosts.addAll(hostOfClient.values());
        hosts.add(SWITCH_OS);
        switchOsContext = new ReplayContext(SWITCH_OS, 1);
        switchOs = switchOses.create(hosts, handle, SWITCH_OS_POLL_NANOS);
        switchOs.onStart(switchOsContext);
        bringUpDevice(0);
        hostContext = new ReplayContext(HOST, 2);
        host = new MemcachedHost();
        host.onStart(hostContext);
        for (String k : keys) {
            acknowledged.put(k, 0L);
            McResponse loaded = host.backend().handle(McRequest.set(ByteString.of(keyBytes.get(k)), valueOf(0), 0, 0, 0));
            if (!loaded.ok()) {
                throw new ReplayException("memcached refused the initial value of " + k + ": status " + loaded.status());
            }
        }
        for (var c : hostOfClient.entrySet()) {
            ReplayContext ctx = new ReplayContext(c.getValue(), 3);
            clientContexts.put(c.getKey(), ctx);
            // one attempt: the spec's client gives up after a timeout instead of resending (ClientGiveUp)
            clients.put(c.getKey(), new LakeClient(ctx, List.of(HOST), CLIENT_TIMEOUT_NANOS, 1, CLIENT_PORT, null));
        }
    }

    /**
     * Key bytes {@code <name>-<n>} (16 bytes), the first n for which the data plane's slots of every key
     * so far are shared exactly as the spec's (index in name order modulo each layer's size).
     */
    private void chooseKeys(List<String> keys, int l1Size, int l2Size) {
        if (l1Size == 0 || l2Size == 0) {
            throw new NotReplayable("the spec state has a layer without slots");
        }
        List<int[]> chosen = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            String k = keys.get(i);
            int room = KEY_BYTES - k.length() - 1;
            if (room < 4) {
                throw new NotReplayable("key name " + k + " leaves no room in a 16-byte key");
            }
            boolean found = false;
            for (int n = 0; n < MAX_KEY_CANDIDATES && !found; n++) {
                byte[] key = String.format("%s-%0" + room + "d", k, n).getBytes(StandardCharsets.US_ASCII);
                int[] slots = {LakeSlots.l1Slot(key), LakeSlots.l2Slot(key)};
                boolean fits = true;
                for (int j = 0; j < chosen.size() && fits; j++) {
                    fits = (i % l1Size == j % l1Size) == (slots[0] == chosen.get(j)[0])
                            && (i % l2Size == j % l2Size) == (slots[1] == chosen.get(j)[1]);
                }
                if (fits) {
                    chosen.add(slots);
                    keyBytes.put(k, key);
                    keyOfBytes.put(ByteString.of(key), k);
                    implSlot.put(List.of(1L, (long) (i % l1Size)), slots[0]);
                    implSlot.put(List.of(2L, (long) (i % l2Size)), slots[1]);
                    found = true;
                }
            }
            if (!found) {
                throw new NotReplayable("no 16-byte key for " + k + " shares the data plane's slots as the spec's");
            }
        }
    }

    /**
     * A (new) device is attached; the switch OS's own loop notices the generation, seeds the tag counter
     * and installs forwarding. {@code specSerial} is the spec's serial at this point (tags survive resets).
     */
    private void bringUpDevice(long specSerial) {
        handle.attach(target.control());
        long before = switchOs.counters().get("switchBringUps");
        fireTimers(switchOsContext, switchOs::onTimer);
        if (switchOs.counters().get("switchBringUps") != before + 1) {
            throw new ReplayException("the switch OS did not bring up the new device");
        }
        // the tags LakeSwitchOs promises generation g (docs/lake.md): from tagBase(g) + 1
        incarnations.add(new Incarnation(LakeSwitchOs.tagBase(handle.generation()).longValueExact(), specSerial));
    }

    // ------------------------------------------------------------------ actions

    @Override
    public void perform(SpecStep before, SpecStep step) {
        String a = step.actionName();
        switch (a) {
            case "ClientSet" -> clientSet(step);
            case "ClientGetHit" -> clientGetHit(step);
            case "ClientGetMiss" -> clientGetMiss(step);
            case "ClientGiveUp" -> giveUp(name(step.param("c")));
            case "HostSet" -> hostRequest(step, "set", "w");
            case "HostGet" -> hostRequest(step, "get", "r");
            case "LakeReply" -> lakeReply(step);
            case "Evict" -> evict(step);
            case "Reset" -> reset();
            case "Lose" -> net.lose(asRecord(step.param("m")));
            case "HostWriteBack", "HostCrash", "DeadHostDrop", "SwitchForget", "HostStart" ->
                    throw new NotReplayable(NOT_REPLAYABLE.get(a));
            default -> throw new NotReplayable(a + ": not an action of Lake.tla");
        }
    }

    /** LK-4: the SET is tagged, remembered and forwarded; the layers do not change. */
    private void clientSet(SpecStep step) {
        String c = name(step.param("c"));
        String k = name(step.param("k"));
        long w = asLong(step.param("w"));
        begin(c, k);
        clients.get(c).put(keyBytes.get(k), valueOf(w).toArray(), r -> completedWrite(c, k, r));
        forwardToHost(c, "ClientSet", sendOne(c));
    }

    /** LK-2: a GET that misses both layers is tagged, remembered and forwarded. */
    private void clientGetMiss(SpecStep step) {
        String c = name(step.param("c"));
        String k = name(step.param("k"));
        begin(c, k);
        clients.get(c).get(keyBytes.get(k), r -> completedRead(c, r));
        byte[] frame = sendOne(c);
        readOfRequest.computeIfAbsent(hostOfClient.get(c), x -> new HashMap<>())
                .put(decodeDatagram(frame).frame().requestId(), asLong(step.param("r")));
        forwardToHost(c, "ClientGetMiss", frame);
    }

    /**
     * LK-3: LaKe answers the GET itself, from the first layer if it holds the key, else the second
     * (checked through its hit counters), and the client completes in the same step.
     */
    private void clientGetHit(SpecStep step) {
        String c = name(step.param("c"));
        String k = name(step.param("k"));
        int layer = switch ((String) step.param("via")) {
            case "HitL1" -> 1;
            case "HitL2" -> 2;
            default -> throw new NotReplayable("ClientGetHit via " + step.param("via") + ": no such case in Lake.tla");
        };
        begin(c, k);
        clients.get(c).get(keyBytes.get(k), r -> completedRead(c, r));
        byte[] frame = sendOne(c);
        long[] hitsBefore = hitCounters();
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(hostOfClient.get(c)), frame);
        expectOnly(out, hostOfClient.get(c), "ClientGetHit: LaKe must answer the GET itself");
        long[] hitsAfter = hitCounters();
        if (hitsAfter[layer - 1] != hitsBefore[layer - 1] + 1 || hitsAfter[2 - layer] != hitsBefore[2 - layer]) {
            throw new ReplayException("ClientGetHit: the spec answers from layer " + layer + ", LaKe's hit counters moved "
                    + "from " + hitsBefore[0] + "/" + hitsBefore[1] + " to " + hitsAfter[0] + "/" + hitsAfter[1]);
        }
        if (!clients.get(c).onPacket(out.get(0).frame()) || clients.get(c).busy()) {
            throw new ReplayException("ClientGetHit: client " + c + " did not take LaKe's answer");
        }
    }

    /** lake_stats[0] and [1]: GETs answered from the first and the second layer. */
    private long[] hitCounters() {
        List<BigInteger> stats = target.control().registerRead(STATS, 0, 1);
        return new long[] {stats.get(0).longValue(), stats.get(1).longValue()};
    }

    /** The client's operation starts: its floor is the newest acknowledged version of its key (floorOf). */
    private void begin(String c, String k) {
        if (clients.get(c).busy()) {
            throw new ReplayException("client " + c + " is still busy; the spec starts a new operation");
        }
        floors.put(c, acknowledged.get(k));
    }

    private byte[] sendOne(String c) {
        List<byte[]> sent = clientContexts.get(c).takeSent();
        if (sent.size() != 1) {
            throw new ReplayException("client " + c + " sent " + sent.size() + " frames for one operation");
        }
        return sent.get(0);
    }

    /** The request passes LaKe, which must forward exactly one tagged request to memcached. */
    private void forwardToHost(String c, String action, byte[] frame) {
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(hostOfClient.get(c)), frame);
        expectOnly(out, HOST, action + ": LaKe must forward the request to memcached");
        byte[] request = out.get(0).frame();
        McRequest r = (McRequest) decodeDatagram(request).message();
        long tag = Integer.toUnsignedLong(r.opaque());
        ModelValue key = keyOf(r.key());
        long id = r.opcode() == McOpcode.SET ? writeIdOf(r.value())
                : readOfRequest.get(hostOfClient.get(c)).get(decodeDatagram(request).frame().requestId());
        forwarded.put(tag, new Forwarded(new ModelValue(c), key, id));
        net.put(specMessageOf(request), Route.TO_HOST, request);
    }

    private void completedWrite(String c, String k, KvResult r) {
        floors.put(c, 0L);
        if (r.outcome() == KvResult.Outcome.OK) {
            acknowledged.merge(k, version(r.seq()), Math::max);
        }
    }

    private void completedRead(String c, KvResult r) {
        long floor = floors.put(c, 0L);
        if (r.outcome() == KvResult.Outcome.OK) {
            long w = writeIdOf(ByteString.of(r.value()));
            lastRead = readRecord(floor, w == 0 ? 0 : version(r.seq()));
        }
    }

    /** The client's timer fires; with one attempt it must give up, sending nothing. */
    private void giveUp(String c) {
        ReplayContext ctx = clientContexts.get(c);
        LakeClient client = clients.get(c);
        if (!client.busy()) {
            throw new ReplayException("ClientGiveUp: client " + c + " has no operation outstanding");
        }
        fireTimers(ctx, client::onTimer);
        if (client.busy() || !ctx.takeSent().isEmpty()) {
            throw new ReplayException("ClientGiveUp: client " + c + " did not give up after its timeout");
        }
        floors.put(c, 0L);
    }

    /** Fires every timer pending in {@code ctx}, oldest first, into its node. */
    private static void fireTimers(ReplayContext ctx, java.util.function.LongConsumer onTimer) {
        for (long timer : ctx.pendingTimers()) {
            if (ctx.fire(timer)) {
                onTimer.accept(timer);
            }
        }
    }

    /** HostSet / HostGet: memcached gets the request; its one reply waits before LaKe. */
    private void hostRequest(SpecStep step, String type, String idParam) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t", type);
        m.put("c", step.param("c"));
        m.put("k", step.param("k"));
        m.put("id", step.param(idParam));
        m.put("tag", step.param("tag"));
        ReplayNetwork.Flight<Route> f = net.take(step.actionName(), Route.TO_HOST, m, false);
        host.onPacket(f.frame());
        List<byte[]> sent = hostContext.takeSent();
        if (sent.size() != 1) {
            throw new ReplayException(step.actionName() + ": memcached sent " + sent.size() + " frames, the spec one reply");
        }
        McResponse reply = (McResponse) decodeDatagram(sent.get(0)).message();
        if (type.equals("set")) {
            if (!reply.ok()) {
                throw new ReplayException("HostSet: memcached refused the SET: status " + reply.status());
            }
            writeVersions.set((int) asLong(step.param("w")) - 1, version(reply.cas()));
        }
        net.put(specMessageOf(sent.get(0)), Route.HOST_TO_SWITCH, sent.get(0));
    }

    /**
     * LK-5 / LK-6 / LK-7: memcached's reply passes LaKe. A reply whose tag LaKe holds fills or
     * invalidates each layer's slot (checked through {@code cache} and {@code fence}) and is relayed to
     * the client in the same step; one whose tag it does not hold is dropped.
     */
    private void lakeReply(SpecStep step) {
        String via = (String) step.param("via");
        boolean relay = !via.equals("DropUnknownReply");
        Map<String, Object> fields = Map.of("c", step.param("c"), "k", step.param("k"), "id", step.param("id"),
                "tag", step.param("tag"));
        Object v = step.param("v");
        ReplayNetwork.Flight<Route> f = net.take("LakeReply", Route.HOST_TO_SWITCH, new Predicate<>() {
            @Override
            public boolean test(Map<String, Object> m) {
                return ReplayNetwork.matches(m, fields) && switch ((String) m.get("t")) {
                    case "getR" -> m.get("v").equals(v);
                    case "setR" -> m.get("id").equals(v);
                    default -> false;
                };
            }

            @Override
            public String toString() {
                return "reply " + fields + " carrying " + v;
            }
        }, false);
        String c = name(step.param("c"));
        List<ReplayTarget.Emitted> out = target.inject(RackPorts.portOf(HOST), f.frame());
        if (!relay) {
            if (!out.isEmpty()) {
                throw new ReplayException("LakeReply: the spec drops a reply with an unknown tag; LaKe emitted "
                        + out.size() + " frame(s) on port " + out.get(0).port());
            }
            return;
        }
        expectOnly(out, hostOfClient.get(c), "LakeReply: LaKe must relay the reply to the client");
        McResponse relayed = (McResponse) decodeDatagram(out.get(0).frame()).message();
        if (relayed.opaque() == ((McResponse) decodeDatagram(f.frame()).message()).opaque()) {
            throw new ReplayException("LakeReply: LaKe relayed its tag, not the client's opaque");
        }
        clients.get(c).onPacket(out.get(0).frame());
    }

    /**
     * The spec's environment: an entry leaves its slot because a key outside the model took it. The
     * replay clears the slot's valid bit through the control API and leaves its fence, as the spec does
     * (a real fill of an outside key would also raise the fence; docs/conformance.md, LaKe limits).
     */
    private void evict(SpecStep step) {
        List<Long> s = slot(step.param("slot"));
        Integer index = implSlot.get(s);
        String k = name(step.param("k"));
        String layer = s.get(0) == 1 ? "l1" : "l2";
        SwitchControl control = target.control();
        if (index == null || control.registerRead("MyIngress." + layer + "_valid", index).signum() == 0
                || !keyOfBytes.containsKey(keyAt(control, layer, index))
                || !keyOfBytes.get(keyAt(control, layer, index)).equals(k)) {
            throw new ReplayException("Evict: slot " + s + " of LaKe does not hold " + k);
        }
        control.registerWrite("MyIngress." + layer + "_valid", index, BigInteger.ZERO);
    }

    /**
     * A device reset: every register is lost (a new, empty device); the frames on the wires stay. The
     * switch OS's loop sees the new generation and seeds the tag counter above every earlier tag.
     */
    private void reset() {
        long serial = specTag(target.control().registerRead(LakeSwitchOs.TAG_COUNTER, 0).longValue());
        handle.detach();
        target.crash();
        bringUpDevice(serial);
    }

    // ------------------------------------------------------------------ frames and spec messages

    private static McDatagram decodeDatagram(byte[] frame) {
        try {
            return MemcachedUdpCodec.decode(UdpFrame.decode(frame).payload());
        } catch (WireException | McException e) {
            throw new ReplayException("the implementation emitted a malformed memcached frame: " + e.getMessage());
        }
    }

    private static void expectOnly(List<ReplayTarget.Emitted> out, int toHost, String what) {
        if (out.size() != 1 || out.get(0).port() != RackPorts.portOf(toHost)) {
            List<Integer> ports = new ArrayList<>();
            for (ReplayTarget.Emitted e : out) {
                ports.add(e.port());
            }
            throw new ReplayException(what + "; LaKe emitted frames on ports " + ports);
        }
    }

    /**
     * The spec message a frame between LaKe and memcached is: get / set (requests, tagged) and getR /
     * setR (replies). A reply's client, key and id are those of the request its tag was issued for.
     */
    private Map<String, Object> specMessageOf(byte[] frame) {
        McDatagram d = decodeDatagram(frame);
        boolean request = d.message() instanceof McRequest;
        long tag = Integer.toUnsignedLong(request ? ((McRequest) d.message()).opaque() : ((McResponse) d.message()).opaque());
        Forwarded f = forwarded.get(tag);
        if (f == null) {
            throw new ReplayException((request ? "LaKe forwarded a request with tag " : "memcached answered tag ") + tag
                    + ", which the replay did not see issued");
        }
        boolean set = (request ? ((McRequest) d.message()).opcode() : ((McResponse) d.message()).opcode()) == McOpcode.SET;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t", (set ? "set" : "get") + (request ? "" : "R"));
        m.put("c", f.client());
        m.put("k", f.key());
        m.put("id", f.id());
        m.put("tag", specTag(tag));
        if (d.message() instanceof McResponse r && !set) {
            m.put("v", r.status() == McStatus.OK ? writeIdOf(r.value()) : -1L);
        }
        return m;
    }

    // ------------------------------------------------------------------ the refinement mapping

    /** The spec's tag of an implementation tag (0: no tag, in both). */
    private long specTag(long implTag) {
        if (implTag == 0) {
            return 0;
        }
        Incarnation in = null;
        for (Incarnation i : incarnations) {
            if (i.implBase() <= implTag) {
                in = i;
            }
        }
        return in == null ? -implTag : in.specBase() + implTag - in.implBase();
    }

    /** The spec's version of a memcached CAS: the initial load took one CAS per key. */
    private long version(long cas) {
        return cas - keyBytes.size();
    }

    static ByteString valueOf(long writeId) {
        String v = VALUE_PREFIX + String.format("%0" + (VALUE_BYTES - VALUE_PREFIX.length()) + "d", writeId);
        return ByteString.of(v.getBytes(StandardCharsets.US_ASCII));
    }

    /** The write id a value stands for; -1 for bytes no replayed write has. */
    static long writeIdOf(ByteString value) {
        String s = new String(value.toArray(), StandardCharsets.US_ASCII);
        if (value.length() != VALUE_BYTES || !s.startsWith(VALUE_PREFIX)) {
            return -1;
        }
        try {
            return Long.parseLong(s.substring(VALUE_PREFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private ModelValue keyOf(ByteString key) {
        String k = keyOfBytes.get(key);
        return new ModelValue(k == null ? "?" + key : k);
    }

    private static ByteString keyAt(SwitchControl control, String layer, int index) {
        return ByteString.of(LakeSwitchOs.registerBytes(control.registerRead("MyIngress." + layer + "_key", index), KEY_BYTES));
    }

    private static Map<String, Object> entry(Object key, long value, boolean dirty) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("k", key);
        e.put("v", value);
        e.put("dirty", dirty);
        return e;
    }

    private static Map<String, Object> readRecord(long floor, long got) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("floor", floor);
        r.put("got", got);
        return r;
    }

    /** A spec slot {@code <<layer, i>>} as a list of two longs. */
    private static List<Long> slot(Object s) {
        List<Long> out = new ArrayList<>();
        for (Object o : sequence(s)) {
            out.add(asLong(o));
        }
        return List.copyOf(out);
    }

    /** A TLA+ sequence (a tuple, or a function over 1..n as TLC may print it) as a list. */
    @SuppressWarnings("unchecked")
    private static List<Object> sequence(Object o) {
        if (o instanceof List<?> l) {
            return (List<Object>) l;
        }
        return new ArrayList<>(((TlaFunction) o).mapping().values());
    }

    /**
     * The implementation's state as spec values: both layers' slots and fences and the tag counter and
     * lookup table (read through the control API), memcached's items and CAS counter, the clients'
     * outstanding operations, the frames in flight, and what the clients were told (versions of
     * acknowledged SETs, floors, the last read).
     */
    @Override
    public Map<String, Object> observe() {
        SwitchControl control = target.control();
        Map<Object, Object> cache = new LinkedHashMap<>();
        Map<Object, Object> fence = new LinkedHashMap<>();
        for (List<Long> s : specSlots) {
            Integer index = implSlot.get(s);
            String layer = s.get(0) == 1 ? "l1" : "l2";
            if (index == null) { // no key of the model hashes here: the slot stays empty in the spec
                cache.put(s, EMPTY_ENTRY);
                fence.put(s, 0L);
                continue;
            }
            boolean valid = control.registerRead("MyIngress." + layer + "_valid", index).signum() != 0;
            cache.put(s, valid ? entry(keyOf(keyAt(control, layer, index)), writeIdOf(ByteString.of(
                    LakeSwitchOs.registerBytes(control.registerRead("MyIngress." + layer + "_value", index), VALUE_BYTES))), false)
                    : EMPTY_ENTRY);
            fence.put(s, specTag(control.registerRead("MyIngress." + layer + "_fence", index).longValue()));
        }
        Set<Object> lut = new TreeSet<>();
        for (BigInteger t : control.registerRead(LakeSwitchOs.LUT_TAG, 0, LUT_SLOTS - 1)) {
            if (t.signum() != 0) {
                lut.add(specTag(t.longValue()));
            }
        }
        MemcachedBackend memcached = host.backend();
        Map<Object, Object> store = new LinkedHashMap<>();
        Map<Object, Object> doneMax = new LinkedHashMap<>();
        for (var e : keyBytes.entrySet()) {
            ModelValue k = new ModelValue(e.getKey());
            store.put(k, memcached.stored(ByteString.of(e.getValue())).map(i -> writeIdOf(i.value())).orElse(-1L));
            doneMax.put(k, acknowledged.get(e.getKey()));
        }
        Map<Object, Object> busy = new LinkedHashMap<>();
        Map<Object, Object> floorOf = new LinkedHashMap<>();
        for (String c : hostOfClient.keySet()) {
            busy.put(new ModelValue(c), clients.get(c).busy());
            floorOf.put(new ModelValue(c), floors.get(c));
        }
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("cache", new TlaFunction(cache));
        state.put("fence", new TlaFunction(fence));
        state.put("serial", specTag(control.registerRead(LakeSwitchOs.TAG_COUNTER, 0).longValue()));
        state.put("lut", lut);
        state.put("store", new TlaFunction(store));
        state.put("casCtr", version(memcached.lastCas()));
        state.put("pend", new TlaFunction(busy));
        state.put("net", net.messages());
        state.put("wver", List.copyOf(writeVersions));
        state.put("doneMax", new TlaFunction(doneMax));
        state.put("floorOf", new TlaFunction(floorOf));
        state.put("lastRead", lastRead);
        return state;
    }

    /**
     * What the implementation can show of the spec's variables: {@code pend} only as whether each
     * client has an operation outstanding; slots as lists (a tuple's encoding may vary); {@code lut} as
     * a sorted set; {@code wver} as a list.
     */
    @Override
    public Object projectSpec(String var, SpecStep state) {
        Object specValue = state.var(var);
        return switch (var) {
            case "pend" -> ReplayProjections.busy(specValue);
            case "cache", "fence" -> {
                Map<Object, Object> bySlot = new LinkedHashMap<>();
                for (var e : ((TlaFunction) specValue).mapping().entrySet()) {
                    bySlot.put(slot(e.getKey()), e.getValue());
                }
                yield new TlaFunction(bySlot);
            }
            case "lut" -> new TreeSet<>((Set<?>) specValue);
            case "wver" -> List.copyOf(sequence(specValue));
            default -> specValue;
        };
    }
}
