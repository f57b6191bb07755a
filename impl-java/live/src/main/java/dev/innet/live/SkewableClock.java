package dev.innet.live;

import dev.innet.sim.Clock;
import dev.innet.sim.live.MonotonicClock;

/**
 * A host process's clock: the monotonic clock plus an offset that the clock-skew nemesis moves forward at
 * run time ({@code clock-skew MS} on the command socket). Only forward: a {@link Clock} never decreases,
 * and the nodes rely on that. The node's timers run on this clock, so a jump fires every timer it passes.
 * The history is not on this clock (it stays on the machine's unshifted clock).
 */
final class SkewableClock implements Clock {
    private final Clock base = new MonotonicClock();
    private volatile long offsetNanos;

    @Override
    public long nowNanos() {
        return base.nowNanos() + offsetNanos;
    }

    /** Moves the clock forward by {@code millis}; returns the total offset in ms. */
    synchronized long jump(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("a clock only moves forward: " + millis + " ms");
        }
        offsetNanos += millis * 1_000_000L;
        return offsetNanos / 1_000_000L;
    }
}
