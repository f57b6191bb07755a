package dev.innet.sim.live;

import dev.innet.sim.Clock;

/** The live clock: {@link System#nanoTime()} from the moment the clock was made (monotonic, not wall time). */
public final class MonotonicClock implements Clock {
    private final long origin = System.nanoTime();

    @Override
    public long nowNanos() {
        return System.nanoTime() - origin;
    }
}
