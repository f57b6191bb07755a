package dev.innet.protocol.spec;

import dev.innet.switchapi.SwitchControl;
import java.util.List;

/**
 * The switch a spec trace is replayed on, as the replay sees it: frames go in on a port and come out
 * on ports, and the control plane is reachable through the target-neutral API. The conformance module
 * provides one backed by p4sim running the protocol's P4 program; a bmv2 driver can provide another.
 * Frames are processed one at a time, each to completion, as the spec's atomic switch steps assume.
 */
public interface ReplayTarget {
    /** A frame the switch emitted. */
    record Emitted(int port, byte[] frame) {}

    /** Processes {@code frame} arriving on {@code port}; returns what the switch emitted, in order. */
    List<Emitted> inject(int port, byte[] frame);

    SwitchControl control();

    /** Loses every table and register, as a switch crash does; a new, empty switch replaces it. */
    void crash();

    /**
     * Another, independent switch running the same program, empty, for replays that drive several
     * switches (DistCache's spine and leaf layers): it crashes on its own and counts into the same
     * coverage. A target that can only be one switch says so.
     */
    default ReplayTarget another() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " runs one switch only");
    }
}
