package dev.innet.sim.testnodes;

import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;

import java.util.ArrayList;
import java.util.List;

/**
 * A scriptable node for unit tests of the simulator: it remembers every frame and timer it saw with
 * the simulated time, and tests drive it through {@code Simulation.atNode} to send frames or set timers.
 */
public final class ProbeNode implements Node {
    public record Received(long timeNanos, byte[] frame) {
        public long number() {
            try {
                return java.nio.ByteBuffer.wrap(UdpFrame.decode(frame).payload()).getLong();
            } catch (WireException e) {
                throw new AssertionError("probe frames decode", e);
            }
        }
    }

    public NodeContext ctx;
    public final List<Received> received = new ArrayList<>();
    public final List<Long> timersFired = new ArrayList<>();
    public final List<Long> timerTimes = new ArrayList<>();
    public int starts;

    @Override
    public void onStart(NodeContext ctx) {
        this.ctx = ctx;
        starts++;
    }

    @Override
    public void onPacket(byte[] frame) {
        received.add(new Received(ctx.clock().nowNanos(), frame));
    }

    @Override
    public void onTimer(long timerId) {
        timersFired.add(timerId);
        timerTimes.add(ctx.clock().nowNanos());
    }

    /** A frame from this node to {@code peer} whose payload is {@code number} as 8 bytes. */
    public byte[] frameTo(int peer, long number) {
        byte[] payload = java.nio.ByteBuffer.allocate(8).putLong(number).array();
        return new UdpFrame(RackAddressing.hostMac(peer), RackAddressing.hostMac(ctx.hostNumber()),
                RackAddressing.hostIp(ctx.hostNumber()), RackAddressing.hostIp(peer), 40000, 5008, payload).encode();
    }

    public void sendTo(int peer, long number) {
        ctx.network().send(frameTo(peer, number));
    }

    public List<Long> numbers() {
        List<Long> out = new ArrayList<>();
        for (Received r : received) {
            out.add(r.number());
        }
        return out;
    }
}
