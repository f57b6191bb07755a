package dev.innet.rack;

import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.protocol.RackPorts;
import dev.innet.sim.device.SwitchDevice;
import dev.innet.sim.device.SwitchOutput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The simulator's switch is p4sim running the rack's P4 program: this adapter only moves frames
 * between the simulator's ports and {@link P4Switch#process}. It holds no switch logic of its own.
 * The controller is an ordinary host on CPU_PORT, so packets the program sends "to the CPU" reach it
 * over its link like any other frame (and can be delayed or lost like any other).
 */
public final class P4SwitchDevice implements SwitchDevice {
    private final P4Switch sw;
    private final SwitchTraffic traffic;
    private final SwitchFrameTrace frames;
    /** The switch's processing time per packet, or null: it takes none. */
    private final SwitchMemoryTiming timing;

    public P4SwitchDevice(P4Switch sw) {
        this(sw, null);
    }

    /** @param traffic counts every frame in and out (a benchmark's observer), or null */
    public P4SwitchDevice(P4Switch sw, SwitchTraffic traffic) {
        this(sw, traffic, null);
    }

    /** @param frames records the clients' frames as trace events (trace validation), or null */
    P4SwitchDevice(P4Switch sw, SwitchTraffic traffic, SwitchFrameTrace frames) {
        this(sw, traffic, frames, java.util.Map.of());
    }

    /** @param memoryNanos the latency of each memory a pass touches ({@code Protocol#switchMemoryNanos}); empty: none */
    P4SwitchDevice(P4Switch sw, SwitchTraffic traffic, SwitchFrameTrace frames, java.util.Map<String, Long> memoryNanos) {
        this.sw = sw;
        this.traffic = traffic;
        this.frames = frames;
        this.timing = memoryNanos.isEmpty() ? null : new SwitchMemoryTiming(sw.memoryAccesses(), memoryNanos);
    }

    @Override
    public List<SwitchOutput> receive(int ingressPort, byte[] frame) {
        List<SwitchOutput> out = new ArrayList<>(2);
        if (timing != null) {
            sw.memoryAccesses().clear();
        }
        sw.process(ingressPort, frame, 0, frame.length,
                (port, buf, off, len) -> out.add(new SwitchOutput(port, Arrays.copyOfRange(buf, off, off + len))));
        if (timing != null) {
            long delay = timing.delayNanos(sw.memoryAccesses());
            if (delay > 0) {
                out.replaceAll(o -> new SwitchOutput(o.egressPort(), o.frame(), delay));
            }
        }
        if (frames != null) {
            frames.processed(frame, out);
        }
        if (traffic != null) {
            traffic.sawIngress(ingressPort, frame, frame.length);
            for (SwitchOutput o : out) {
                traffic.sawEgress(o.egressPort(), o.frame(), o.frame().length);
            }
        }
        return out;
    }

    @Override
    public int cpuPort() {
        return RackPorts.CPU_PORT;
    }

    public P4Switch p4Switch() {
        return sw;
    }
}
