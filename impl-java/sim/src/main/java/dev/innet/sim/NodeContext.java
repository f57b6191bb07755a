package dev.innet.sim;

/**
 * Everything a node may use to touch the world, handed to {@link Node#onStart}. One context per
 * incarnation: after a crash the old context is dead and using it is an error.
 */
public interface NodeContext {
    /** The node's host number in the rack (docs/wire-format.md: IP 10.0.0.h, MAC 02:00:00:00:00:hh). */
    int hostNumber();

    /** How many times this host has been started before: 0 on first start, then 1, 2, ... after restarts. */
    int incarnation();

    Clock clock();

    /** This node's own random stream; fork it per subsystem. */
    RandomSource random();

    Network network();

    Timers timers();

    DurableStore durable();

    /** A line for the run's trace (in a simulation it also feeds the event-log hash). */
    void log(String message);

    /**
     * A protocol event for trace validation (a spec action happened here; see {@link TraceEvent}). The
     * simulator records it in run order with the simulated time and this host; a live host writes it only
     * when configured to, and drops it otherwise. Never I/O from the node's point of view.
     */
    void trace(TraceEvent event);
}
