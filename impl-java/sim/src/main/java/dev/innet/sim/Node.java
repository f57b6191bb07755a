package dev.innet.sim;

/**
 * A protocol participant written as an event handler: a server, controller, client or switch OS.
 *
 * <p>The runtime calls these methods one at a time, never concurrently, and the node must return
 * promptly: no threads, sleeps, blocking I/O, wall-clock reads, sockets or unseeded randomness
 * (docs/simulator.md, "Rules for protocol code"). Everything it needs comes through the
 * {@link NodeContext} it gets in {@link #onStart}. That is what lets the same class run in the
 * deterministic simulator and live over UDP.
 *
 * <p>A node must survive any frame: malformed bytes are counted and dropped, never thrown (an exception
 * from a handler fails the simulation run).
 */
public interface Node {
    /** Called once per incarnation, before any packet or timer. Rebuild volatile state from {@code ctx.durable()} here. */
    void onStart(NodeContext ctx);

    /** A frame arrived on the host's link. The array belongs to the node. */
    void onPacket(byte[] frame);

    /** A timer scheduled through {@link Timers#schedule} fired. */
    void onTimer(long timerId);
}
