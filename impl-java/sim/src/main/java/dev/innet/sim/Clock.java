package dev.innet.sim;

/**
 * The only source of time protocol code may read. In a simulation it is the simulated time of the event
 * being handled (it does not advance while a handler runs); live, it is a monotonic clock.
 */
public interface Clock {
    /** Nanoseconds since an arbitrary per-run origin; never decreases. */
    long nowNanos();
}
