package dev.innet.farreach.controller;

import java.util.List;

/**
 * Points where an outside observer (a runtime monitor in a simulation, never the protocol itself)
 * looks at what the controller does. The snapshot monitor reads the switch at the snapshot point and
 * compares it with what the controller ends up keeping.
 */
public interface ControllerHooks {
    ControllerHooks NONE = new ControllerHooks() {};

    /** A procedure (admission, eviction, snapshot, recovery; named as {@code currentProcedure()}) begins. */
    default void procedureStarted(String procedure, long nowNanos) {}

    /** Snapshot {@code epoch}'s snapshot point: phase 1 has just begun on the switch. */
    default void snapshotPoint(long epoch) {}

    /** Snapshot {@code epoch} is complete: these records are what the controller keeps. */
    default void snapshotTaken(long epoch, List<CachedRecord> records, long startedNanos, long endedNanos) {}

    /** A recovery after a switch restart finished (client requests flow again). */
    default void recovered(long startedNanos, long endedNanos, int replayed, int readmitted, int clientsAnswered) {}

    /** Both observers, {@code a} first. */
    static ControllerHooks both(ControllerHooks a, ControllerHooks b) {
        return new ControllerHooks() {
            @Override
            public void procedureStarted(String procedure, long nowNanos) {
                a.procedureStarted(procedure, nowNanos);
                b.procedureStarted(procedure, nowNanos);
            }

            @Override
            public void snapshotPoint(long epoch) {
                a.snapshotPoint(epoch);
                b.snapshotPoint(epoch);
            }

            @Override
            public void snapshotTaken(long epoch, List<CachedRecord> records, long startedNanos, long endedNanos) {
                a.snapshotTaken(epoch, records, startedNanos, endedNanos);
                b.snapshotTaken(epoch, records, startedNanos, endedNanos);
            }

            @Override
            public void recovered(long startedNanos, long endedNanos, int replayed, int readmitted, int clientsAnswered) {
                a.recovered(startedNanos, endedNanos, replayed, readmitted, clientsAnswered);
                b.recovered(startedNanos, endedNanos, replayed, readmitted, clientsAnswered);
            }
        };
    }
}
