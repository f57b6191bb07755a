package dev.innet.rack.controller;

/**
 * Deliberate controller bugs, used only by tests that show a runtime monitor catching each one. Every
 * production configuration has none.
 */
public enum SeededBug {
    /** Recovery replays only the snapshot, not the records clients preserved (§3.4). */
    RECOVERY_IGNORES_PRESERVED,
    /** Snapshots use the records as loaded, ignoring the first-write originals the switch reported. */
    SNAPSHOT_WITHOUT_ORIGINALS,
    /** A restarted switch keeps its sequence counters at 0 (new writes look older than stored ones). */
    RECOVERY_KEEPS_COUNTERS_AT_ZERO
}
