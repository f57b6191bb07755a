package dev.innet.visibility;

import dev.innet.kv.FakeContext;
import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import dev.innet.protocol.KvResult;
import dev.innet.protocol.RackPorts;
import dev.innet.rack.RackRuns;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.visibility.client.VisibilityClient;
import dev.innet.visibility.controller.VisibilitySwitchOs;
import dev.innet.visibility.fs.FsClient;
import dev.innet.visibility.metadata.MetadataNode;
import dev.innet.visibility.wire.KeyHasher;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.WireException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A visibility rack whose network the test drives by hand, as the spec's network is driven by TLC: the
 * real P4 program on p4sim, the real metadata node, data node, switch OS and clients on hand-driven
 * contexts, and every frame in flight visible, so a test can hold one back (a late reply), deliver it
 * twice (a duplicate), or crash the switch, and replay a counterexample of specs/visibility on the
 * implementation. Timers of the metadata node and the switch OS fire whenever the network is quiet;
 * clients' retry timers never fire (nothing is lost).
 */
final class ScriptedRack {
    static final int MDN = 1;
    static final int DN = 2;
    static final int CONTROLLER = RackPorts.CONTROLLER_HOST;

    /** A frame in flight: from {@code host} to the switch, or from the switch to {@code host}. */
    record Flight(int host, boolean toSwitch, byte[] frame) {
        InnetMessage message() {
            try {
                return InnetPacket.decode(frame).message();
            } catch (WireException e) {
                return null;
            }
        }
    }

    private final Path program;
    private final SwitchHandle handle = new SwitchHandle();
    private P4Switch sw;
    private final Map<Integer, FakeContext> contexts = new LinkedHashMap<>();
    private final Map<Integer, Node> nodes = new LinkedHashMap<>();
    private final Map<Integer, VisibilityClient> clients = new LinkedHashMap<>();
    final List<Flight> inFlight = new ArrayList<>();

    /** A file-system client of a scripted rack (the rack's roles and history given). */
    interface FsClients {
        FsClient create(NodeContext ctx, RackRoles roles, HistoryRecorder history);
    }

    /** Every operation of the file-system clients, on the contexts' common clock ({@link #advance}). */
    final HistoryRecorder history = new HistoryRecorder(() -> contexts.get(MDN).now);
    private final Map<Integer, FsClient> fsClients = new LinkedHashMap<>();

    /** A rack of the key-value store with {@code clientCount} clients on hosts 3, 4, ... */
    ScriptedRack(Path program, Function<RackRoles, Node> dataNode, VisibilitySwitchOs.ResyncFactory resyncs, int clientCount)
            throws Exception {
        this(program, VisApplication.KEY_VALUE, dataNode, resyncs, clientCount, null);
    }

    /** A rack of {@code application}; with {@code fsClients}, its clients are file-system clients. */
    ScriptedRack(Path program, VisApplication application, Function<RackRoles, Node> dataNode,
            VisibilitySwitchOs.ResyncFactory resyncs, int clientCount, FsClients fsClientsOf) throws Exception {
        this.program = program;
        // every key in slot 0 (one data node, one timestamp source); fingerprints as usual
        RackRoles roles = new RackRoles(MDN, List.of(DN), KeyHasher.colliding(1, 1 << 30), VisibilityProtocol.PAPER_TIMEOUT_NANOS);
        List<Integer> hosts = new ArrayList<>(List.of(MDN, DN, CONTROLLER));
        start(MDN, new MetadataNode(roles, 16, 10_000, 20_000, application));
        start(DN, dataNode.apply(roles));
        for (int c = 0; c < clientCount; c++) {
            int host = 3 + c;
            hosts.add(host);
            FakeContext ctx = new FakeContext(host, Path.of("target"));
            contexts.put(host, ctx);
            if (fsClientsOf != null) {
                fsClients.put(host, fsClientsOf.create(ctx, roles, history));
            } else {
                clients.put(host, new VisibilityClient(ctx, roles, null, 16, 100));
            }
        }
        start(CONTROLLER, new VisibilitySwitchOs(roles, hosts, handle, 200_000, Long.MAX_VALUE, resyncs));
        startSwitch();
    }

    private void start(int host, Node node) {
        FakeContext ctx = new FakeContext(host, Path.of("target"));
        contexts.put(host, ctx);
        nodes.put(host, node);
        node.onStart(ctx);
    }

    /** A fresh switch (empty tables and registers); the switch OS programs it at its next poll. */
    void startSwitch() throws Exception {
        sw = P4Sim.compile(program, List.of(RackRuns.root().resolve("p4"))).instantiate(SwitchConfig.defaults().withCpuPort(-1));
        handle.attach(sw.control());
    }

    /** The switch crashes and restarts: every frame on its wires is lost with it. */
    void crashSwitch() throws Exception {
        handle.detach();
        inFlight.clear();
        startSwitch();
    }

    VisibilityClient client(int host) {
        return clients.get(host);
    }

    FsClient fsClient(int host) {
        return fsClients.get(host);
    }

    /** Every context's clock moves on by {@code nanos} (so operations after it do not overlap those before). */
    void advance(long nanos) {
        contexts.values().forEach(c -> c.now += nanos);
    }

    /**
     * Moves frames until nothing moves: frames in flight that {@code hold} does not match are delivered
     * (to the switch, or from it to their host); when the network is quiet, the pending timers of the
     * metadata node and the switch OS fire. Held frames stay in flight.
     */
    void run(Predicate<Flight> hold) {
        for (int round = 0; round < 10_000; round++) {
            collectSent();
            boolean moved = false;
            for (Flight f : new ArrayList<>(inFlight)) {
                if (hold.test(f)) {
                    continue;
                }
                inFlight.remove(f);
                moved = true;
                if (f.toSwitch()) {
                    for (P4Switch.OutPacket out : sw.process(RackPorts.portOf(f.host()), f.frame())) {
                        int to = out.port() == RackPorts.CPU_PORT ? CONTROLLER : out.port();
                        inFlight.add(new Flight(to, false, out.frame()));
                    }
                } else {
                    deliver(f.host(), f.frame());
                }
            }
            if (!moved) {
                // quiet: the earliest timer of the metadata node or the switch OS fires (the switch OS
                // polls forever, so stop once its poll sends nothing and the metadata node waits for nothing)
                long mdnDue = contexts.get(MDN).timers.isEmpty() ? Long.MAX_VALUE : contexts.get(MDN).timers.firstEntry().getValue();
                long osDue = contexts.get(CONTROLLER).timers.firstEntry().getValue();
                if (mdnDue <= osDue) {
                    fireEarliest(MDN);
                    continue;
                }
                fireEarliest(CONTROLLER);
                collectSent();
                if (inFlight.stream().allMatch(hold) && contexts.get(MDN).timers.isEmpty()) {
                    return;
                }
            }
        }
        StringBuilder flights = new StringBuilder();
        for (Flight f : inFlight) {
            InnetMessage m = f.message();
            flights.append(f.host()).append(f.toSwitch() ? "->sw " : "<-sw ")
                    .append(m == null ? "?" : Integer.toHexString(m.op())).append("; ");
        }
        throw new AssertionError("the scripted rack did not settle; in flight: " + flights + " timers mdn "
                + contexts.get(MDN).timers + " controller " + contexts.get(CONTROLLER).timers);
    }

    void runAll() {
        run(f -> false);
    }

    /** The last frame {@code host} sent (collected into flight by this call). */
    byte[] lastSentBy(int host) {
        collectSent();
        return lastSent.get(host);
    }

    private final Map<Integer, byte[]> lastSent = new LinkedHashMap<>();

    private void collectSent() {
        contexts.forEach((host, ctx) -> {
            for (byte[] frame : ctx.sent) {
                inFlight.add(new Flight(host, true, frame));
                lastSent.put(host, frame);
            }
            ctx.sent.clear();
        });
    }

    private void deliver(int host, byte[] frame) {
        if (clients.containsKey(host)) {
            clients.get(host).onPacket(frame);
        } else if (fsClients.containsKey(host)) {
            fsClients.get(host).onPacket(frame);
        } else {
            nodes.get(host).onPacket(frame);
        }
    }

    /** Advances every context's clock to the host's earliest timer and fires it. */
    private void fireEarliest(int host) {
        FakeContext ctx = contexts.get(host);
        var first = ctx.timers.pollFirstEntry();
        long now = Math.max(ctx.now, first.getValue());
        contexts.values().forEach(c -> c.now = Math.max(c.now, now));
        nodes.get(host).onTimer(first.getKey());
    }

    /** The result of an operation, filled in by its callback. */
    static final class Outcome {
        KvResult result;

        void set(KvResult r) {
            result = r;
        }

        String value() {
            return result == null ? "<pending>" : new String(result.value()).trim();
        }
    }
}
