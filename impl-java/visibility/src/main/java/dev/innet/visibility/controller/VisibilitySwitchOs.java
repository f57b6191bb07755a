package dev.innet.visibility.controller;

import dev.innet.kv.PacketPrologue;
import dev.innet.protocol.Forwarding;
import dev.innet.protocol.NodeCounters;
import dev.innet.protocol.RackPorts;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.visibility.RackRoles;
import dev.innet.visibility.VisibilityTraceEvents;
import dev.innet.visibility.TimerActions;
import dev.innet.visibility.wire.VisFrames;
import dev.innet.visibility.wire.VisOp;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The switch OS of a visibility rack (host 254, the CPU port). On a switch generation it has not seen
 * (a fresh or restarted switch, which lost every table and register) it installs forwarding, points the
 * clone session of asynchronous updates at the metadata node and runs {@link Resync}; a switch that
 * is already programmed and ready (this node restarted, the switch did not) is left alone. While the
 * switch is ready it scans for stale entries ({@link StaleScan}).
 */
public final class VisibilitySwitchOs implements Node, NodeCounters {
    private final RackRoles roles;
    private final List<Integer> hosts;
    private final SwitchHandle handle;
    private final long pollNanos;
    private final long staleScanNanos;
    private final ResyncFactory resyncs;
    private final int sweepSteps;
    private NodeContext ctx;
    private TimerActions timers;
    private int seenGeneration;
    private long rounds;
    private Resync resync;
    private final StaleScan staleScan = new StaleScan();
    private long lastScan;
    private final Map<String, Long> counts = new HashMap<>();

    /** Makes the resynchronisation procedure of one round (tests substitute a seeded bug). */
    public interface ResyncFactory {
        Resync make(NodeContext ctx, TimerActions timers, RackRoles roles, SwitchControl control, long round,
                Runnable onDone);
    }

    public VisibilitySwitchOs(RackRoles roles, List<Integer> hosts, SwitchHandle handle, long pollNanos,
            long staleScanNanos, ResyncFactory resyncs) {
        this.roles = roles;
        this.hosts = List.copyOf(hosts);
        this.handle = handle;
        this.pollNanos = pollNanos;
        this.staleScanNanos = staleScanNanos;
        this.resyncs = resyncs;
        this.sweepSteps = sweepSteps(staleScanNanos);
    }

    /** No sweep step closer than this to the next: a step's reads then take a small share of the loop. */
    static final long MIN_STEP_NANOS = 100_000_000L;
    static final int MAX_STEPS = 16;

    /**
     * How many steps one sweep of every slot takes: 1 (the whole table each period) unless the period is
     * long enough to split into steps at least {@link #MIN_STEP_NANOS} apart (a live rack's, seconds),
     * up to {@link #MAX_STEPS}; a power of two, so the steps divide the table evenly.
     */
    static int sweepSteps(long staleScanNanos) {
        int steps = 1;
        while (steps < MAX_STEPS && staleScanNanos / (steps * 2L) >= MIN_STEP_NANOS) {
            steps *= 2;
        }
        return steps;
    }

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        this.timers = new TimerActions(context);
        // rounds of different incarnations must not be confused by late replies
        this.rounds = (long) context.incarnation() << 24;
        timers.after(pollNanos, this::poll);
    }

    private void count(String name) {
        counts.merge(name, 1L, Long::sum);
    }

    private void poll() {
        if (handle.isUp() && handle.generation() != seenGeneration) {
            seenGeneration = handle.generation();
            staleScan.forget();
            if (resync != null) {
                resync.cancel();
                resync = null;
            }
            bringUp(handle.control());
        }
        if (handle.isUp() && resync == null && ctx.clock().nowNanos() - lastScan >= staleScanNanos / sweepSteps) {
            lastScan = ctx.clock().nowNanos();
            SwitchControl control = handle.control();
            counts.merge("staleEntries", (long) staleScan.scanNext(control, SwitchNames.SLOTS / sweepSteps, (ext, address) -> {
                ByteBuffer position = ByteBuffer.allocate(Long.BYTES).putLong(address.position());
                InnetMessage m = VisFrames.message(VisOp.RESEND_ASYNC, 0, 0, 0, new byte[InnetMessage.KEY_BYTES], 0, ext,
                        position.array());
                if (roles.dataNodes().contains(address.dataNode())) {
                    ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.STALE_RESEND).with("slot", ext.index())
                            .with("dataNode", address.dataNode()).with("position", address.position()));
                    ctx.network().send(VisFrames.serverToServer(ctx.hostNumber(), address.dataNode(), m));
                }
            }), Long::sum);
        }
        timers.after(pollNanos, this::poll);
    }

    private void bringUp(SwitchControl control) {
        boolean running = Forwarding.installed(control) && control.registerRead(SwitchNames.READY, 0).signum() != 0;
        if (running) {
            ctx.log("switch generation " + seenGeneration + " already programmed and ready");
            return;
        }
        if (!Forwarding.installed(control)) {
            Forwarding.install(control, hosts);
        }
        control.cloneSessionSet(SwitchNames.META_CLONE_SESSION, RackPorts.portOf(roles.metadataNode()));
        control.registerWrite(SwitchNames.MDN_HOST, 0, BigInteger.valueOf(roles.metadataNode()));
        count("switchBringUps");
        resync = resyncs.make(ctx, timers, roles, control, ++rounds, () -> {
            resync = null;
            count("resyncs");
        });
        resync.start();
    }

    @Override
    public void onPacket(byte[] bytes) {
        InnetPacket packet = PacketPrologue.decodeOrDrop(bytes, f -> f.dstPort() == VisOp.PORT, () -> count("malformed"));
        if (packet == null) {
            return;
        }
        if (resync == null || !resync.onReply(packet.frame().srcIp(), packet.message())) {
            count("unexpected");
        }
    }

    @Override
    public void onTimer(long timerId) {
        timers.fire(timerId);
    }

    @Override
    public Map<String, Long> counters() {
        return Map.copyOf(counts);
    }

    /** The real procedure. */
    public static final ResyncFactory RESYNC = Resync::new;
}
