package dev.innet.sim;

/**
 * One-shot timers. A timer that fires calls {@link Node#onTimer(long)} with the id {@link #schedule}
 * returned; the node keeps its own map from id to purpose. A crash cancels all of a node's timers.
 */
public interface Timers {
    /** Upper bound on a node's pending timers: a node that leaks timers fails loudly instead of slowly. */
    int MAX_PENDING = 100_000;

    /**
     * Schedules a timer {@code delayNanos} (>= 0) from now and returns its id: positive, unique for the
     * node's incarnation, increasing in scheduling order. Timers due at the same instant fire in scheduling order.
     */
    long schedule(long delayNanos);

    /** Cancels a pending timer; returns false if it already fired, was cancelled, or never existed. */
    boolean cancel(long timerId);
}
