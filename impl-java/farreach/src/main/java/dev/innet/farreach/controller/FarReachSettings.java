package dev.innet.farreach.controller;

/**
 * FarReach's own controller settings.
 *
 * @param evictRetryNanos     EVICT_STORE retransmission interval until the server acknowledges
 * @param snapshotPeriodNanos time between crash-consistent snapshots (0 = none; the paper's and
 *                            innet's default is 10 s, of simulated time in a simulation)
 */
public record FarReachSettings(long evictRetryNanos, long snapshotPeriodNanos) {
    public static final long DEFAULT_SNAPSHOT_PERIOD_NANOS = 10_000_000_000L;
    public static final FarReachSettings DEFAULTS = new FarReachSettings(1_000_000, DEFAULT_SNAPSHOT_PERIOD_NANOS);

    public FarReachSettings {
        if (evictRetryNanos < 1) {
            throw new IllegalArgumentException("eviction retry period must be positive");
        }
        if (snapshotPeriodNanos < 0) {
            throw new IllegalArgumentException("snapshot period must be >= 0");
        }
    }

    public FarReachSettings withSnapshotPeriodNanos(long n) {
        return new FarReachSettings(evictRetryNanos, n);
    }
}
