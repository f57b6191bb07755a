package dev.innet.sim.simulated;

import dev.innet.sim.device.SwitchDevice;

import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * A switch in the simulated topology: a {@link SwitchDevice} plus the channels leaving its ports. A
 * crash discards the device (tables, registers, cached records: all volatile, as in a real switch); a
 * restart builds a fresh one from the factory, which the control plane must then reprogram.
 */
public final class SimSwitch {
    final String name;
    final Supplier<SwitchDevice> factory;
    SwitchDevice device;
    boolean up;
    /** Advances at every start and crash; frames in flight towards an older epoch are lost. */
    long epoch;
    final TreeMap<Integer, Channel> egress = new TreeMap<>();

    SimSwitch(String name, Supplier<SwitchDevice> factory) {
        this.name = name;
        this.factory = factory;
    }

    public String name() {
        return name;
    }

    public boolean isUp() {
        return up;
    }

    /** The running device (for a control plane or a test to program it), or null while crashed. */
    public SwitchDevice device() {
        return device;
    }

    @Override
    public String toString() {
        return name;
    }
}
