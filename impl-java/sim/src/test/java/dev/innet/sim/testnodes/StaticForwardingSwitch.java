package dev.innet.sim.testnodes;

import dev.innet.sim.device.SwitchDevice;
import dev.innet.sim.device.SwitchOutput;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Test-only stand-in for p4sim: forwards by destination IPv4 address through a fixed table, the way
 * the real programs' forwarding table does once the control plane has filled it. Frames that do not
 * decode or have no table entry are dropped. Counts what it saw so tests can assert on it.
 */
public final class StaticForwardingSwitch implements SwitchDevice {
    public static final int CPU_PORT = 64;

    private final TreeMap<Integer, Integer> portByIp = new TreeMap<>();
    public int framesIn;
    public int dropped;
    /** How long the switch takes over a frame (a timing model's stand-in); none by default. */
    public java.util.function.ToLongFunction<byte[]> processingNanos = frame -> 0;

    /** Host h is on port h. */
    public static StaticForwardingSwitch hostOnSamePort(int... hosts) {
        StaticForwardingSwitch sw = new StaticForwardingSwitch();
        for (int h : hosts) {
            sw.route(RackAddressing.hostIp(h), h);
        }
        return sw;
    }

    public StaticForwardingSwitch route(int dstIp, int port) {
        portByIp.put(dstIp, port);
        return this;
    }

    public Map<Integer, Integer> table() {
        return Map.copyOf(portByIp);
    }

    @Override
    public List<SwitchOutput> receive(int ingressPort, byte[] frame) {
        framesIn++;
        UdpFrame f;
        try {
            f = UdpFrame.decode(frame);
        } catch (WireException e) {
            dropped++;
            return List.of();
        }
        Integer port = portByIp.get(f.dstIp());
        if (port == null) {
            dropped++;
            return List.of();
        }
        return List.of(new SwitchOutput(port, frame, processingNanos.applyAsLong(frame)));
    }

    @Override
    public int cpuPort() {
        return CPU_PORT;
    }
}
