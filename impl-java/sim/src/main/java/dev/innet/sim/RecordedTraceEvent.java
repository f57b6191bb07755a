package dev.innet.sim;

/** A {@link TraceEvent} as a run recorded it: when (simulated nanoseconds), on which host and incarnation. */
public record RecordedTraceEvent(long timeNanos, int host, int incarnation, TraceEvent event) {
    public String toJsonLine() {
        return event.toJsonLine(timeNanos, host, incarnation);
    }
}
