package dev.innet.sim.device;

import java.util.List;

/**
 * A switch as the simulator sees it: frame in on a port, zero or more frames out on ports. The real
 * implementation is p4sim running a {@code p4/*.p4} program (an adapter over its
 * {@code process(ingressPort, frame)}); there is deliberately no Java switch logic in the simulator
 * (ARCHITECTURE.md, principle 2).
 *
 * <p>Contract: deterministic (same state and input, same outputs), single-threaded, no clock or
 * randomness of its own except what it is constructed with, returns promptly. The CPU/controller port
 * is an ordinary port number ({@link #cpuPort()}) to which the controller's host is attached.
 */
public interface SwitchDevice {
    /** Processes one frame that arrived on {@code ingressPort}; the array belongs to the device. */
    List<SwitchOutput> receive(int ingressPort, byte[] frame);

    /** The port number that leads to the CPU/controller (packet-in/packet-out). */
    int cpuPort();
}
