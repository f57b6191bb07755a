package dev.innet.pegasus.chain;

import dev.innet.kv.KvOp;
import dev.innet.pegasus.controller.PegasusController;
import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.protocol.Forwarding;
import dev.innet.protocol.NodeCounters;
import dev.innet.protocol.Topology;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The global configuration service of §7, with the core switch's OS, on the core's CPU port. It keeps
 * the core forwarding (every host through the port towards it; its rack gate on with no servers, so the
 * core only relays), watches every live rack by probing its servers, and when no server of a rack has
 * answered for {@link Settings#failureTimeoutNanos} it removes the rack from every chain: after a drain
 * time (writes the failed rack passed down the chain before it died reach the next rack before any
 * write is stamped under the new view, the same bounded-delay argument as the transitions' drain,
 * docs/pegasus.md "Limits"), the view's epoch goes up and the new view is announced to every client,
 * server and rack controller of the live racks, resent until each acknowledges. The last live rack is
 * never removed. A removed rack is not re-added (a replacement rack would first need the chain's data
 * and a ver_next at least the others', §7; not built).
 */
public final class ChainConfigService implements Node, NodeCounters {
    /**
     * @param probeNanos          how often each live rack's servers are probed
     * @param failureTimeoutNanos a rack none of whose servers answered for this long is removed
     * @param drainNanos          wait between the decision and the announcement
     * @param retryNanos          resend interval of an unacknowledged announcement
     */
    public record Settings(long probeNanos, long failureTimeoutNanos, long drainNanos, long retryNanos) {
        public Settings {
            if (probeNanos <= 0 || failureTimeoutNanos <= probeNanos || drainNanos < 0 || retryNanos <= 0) {
                throw new IllegalArgumentException("chain service timing: probe > 0, failure timeout > probe, drain >= 0, retry > 0");
            }
        }
    }

    private final ChainPlacement placement;
    private final Topology topology;
    private final List<Integer> clients;
    private final SwitchHandle core;
    private final Settings settings;
    private final Map<String, Long> counters = new TreeMap<>();
    private NodeContext ctx;
    private final HeldChainView held;
    private int seenGeneration;
    private long probeTimer;
    private long retryTimer;
    private long nextRequestId = 1;
    private final Map<Integer, Long> lastHeard = new TreeMap<>();
    private final Set<Integer> unacknowledged = new TreeSet<>();
    private int removing;
    private long announceAt;

    public ChainConfigService(ChainPlacement placement, Topology topology, List<Integer> clients, SwitchHandle core,
            Settings settings) {
        this.placement = placement;
        this.topology = topology;
        this.clients = List.copyOf(clients);
        this.core = core;
        this.settings = settings;
        this.held = new HeldChainView(placement.racks());
    }

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        held.load(context.durable());
        ChainView view = view();
        for (String c : List.of("probes", "reconfigurations", "announcements", "malformed")) {
            counters.put(c, 0L);
        }
        for (int r = 1; r <= placement.racks(); r++) {
            lastHeard.put(r, ctx.clock().nowNanos()); // a grace period from every (re)start
        }
        if (view.epoch() > 0) {
            announceToAll(); // whoever missed the last announcement while this service was down
        }
        probeTimer = ctx.timers().schedule(settings.probeNanos());
        retryTimer = ctx.timers().schedule(settings.retryNanos());
        context.log("chain configuration service up, epoch " + view.epoch() + ", racks " + Long.toBinaryString(view.liveRacks()));
    }

    @Override
    public void onTimer(long timerId) {
        if (timerId == probeTimer) {
            programCore();
            probe();
            detectFailure();
            probeTimer = ctx.timers().schedule(settings.probeNanos());
        } else if (timerId == retryTimer) {
            if (removing != 0 && ctx.clock().nowNanos() >= announceAt) {
                held.adopt(view().without(removing));
                ctx.log("chain: rack " + removing + " removed, epoch " + view().epoch());
                removing = 0;
                count("reconfigurations");
                announceToAll();
            }
            for (int host : unacknowledged) {
                announce(host);
            }
            retryTimer = ctx.timers().schedule(settings.retryNanos());
        }
    }

    @Override
    public void onPacket(byte[] bytes) {
        PegasusPacket p = PegasusPacket.decodeOrDrop(bytes, f -> f.dstIp() == RackAddressing.hostIp(ctx.hostNumber()),
                () -> count("malformed"));
        if (p == null) {
            return;
        }
        int from = RackAddressing.hostOfIp(p.frame().srcIp());
        switch (p.message().op()) {
            case PegasusOp.MAX_VERSION_REPLY -> {
                int rack = placement.rackOfServer(from);
                if (rack != 0) {
                    lastHeard.put(rack, ctx.clock().nowNanos());
                }
            }
            case PegasusOp.CHAIN_CONFIG_REPLY -> {
                if (p.message().seq() >= view().epoch()) {
                    unacknowledged.remove(from);
                }
            }
            default -> count("malformed");
        }
    }

    /** A fresh (or restarted) core switch: routes to every host, the gate on with no servers of its own. */
    private void programCore() {
        if (!core.isUp() || core.generation() == seenGeneration) {
            return;
        }
        seenGeneration = core.generation();
        programCore(core.control(), topology);
    }

    /** The core's tables: every host through the port towards it, the rack gate on with no servers listed. */
    public static void programCore(SwitchControl c, Topology topology) {
        c.clearTable(Forwarding.IPV4_FORWARD);
        Forwarding.install(c, new ArrayList<>(topology.hosts().keySet()),
                h -> topology.portTowardHost(ChainNetwork.CORE, h, Set.of()));
        c.registerWrite("MyIngress.rack_gate", 0, BigInteger.ONE);
    }

    private void probe() {
        for (int r = 1; r <= placement.racks(); r++) {
            if (view().isLive(r)) {
                for (int server : placement.serversOf(r)) {
                    count("probes");
                    send(server, PegasusOp.PORT, PegasusOp.MAX_VERSION, new byte[0]);
                }
            }
        }
    }

    private void detectFailure() {
        long now = ctx.clock().nowNanos();
        ChainView view = view();
        if (removing != 0 || Long.bitCount(view.liveRacks()) < 2) {
            return;
        }
        for (int r = 1; r <= placement.racks(); r++) {
            if (view.isLive(r) && now - lastHeard.get(r) > settings.failureTimeoutNanos()) {
                removing = r;
                announceAt = now + settings.drainNanos();
                ctx.log("chain: rack " + r + " silent for " + (now - lastHeard.get(r)) / 1_000 + " us: removing it");
                return;
            }
        }
    }

    /** Every client, and every server and rack controller of a live rack, is told the current view. */
    private void announceToAll() {
        unacknowledged.clear();
        unacknowledged.addAll(clients);
        for (int r = 1; r <= placement.racks(); r++) {
            if (view().isLive(r)) {
                unacknowledged.addAll(placement.serversOf(r));
                unacknowledged.add(ChainNetwork.controllerOf(r));
            }
        }
        for (int host : unacknowledged) {
            announce(host);
        }
    }

    private void announce(int host) {
        count("announcements");
        // clients listen for control messages on the family's control port; servers and controllers on 5010
        send(host, clients.contains(host) ? KvOp.CONTROL_PORT : PegasusOp.PORT, PegasusOp.CHAIN_CONFIG, view().encode());
    }

    private void send(int host, int port, int op, byte[] value) {
        int me = ctx.hostNumber();
        InnetMessage m = PegasusPacket.message(op, 0, 0, nextRequestId++, new byte[InnetMessage.KEY_BYTES], view().epoch(),
                PegasusExt.NONE, value);
        ctx.network().send(new UdpFrame(RackAddressing.hostMac(host), RackAddressing.hostMac(me), RackAddressing.hostIp(me),
                RackAddressing.hostIp(host), PegasusController.CONTROL_SOURCE_PORT, port, m.encode()));
    }

    /** The view this service holds. */
    public ChainView view() {
        return held.view();
    }

    private void count(String name) {
        counters.merge(name, 1L, Long::sum);
    }

    @Override
    public Map<String, Long> counters() {
        return new TreeMap<>(counters);
    }
}
