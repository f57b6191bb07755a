package dev.innet.rack.workload;

import dev.innet.sim.RandomSource;

/**
 * What a workload client does next: the kind of operation and the index of its key (key i is
 * {@code "user<i>"}, {@link WorkloadClient#keyOf}). Every random choice is drawn from the source the
 * caller passes (a client's seeded stream in the simulator), so a run replays from its seed. A
 * benchmark or the demo takes one of these instead of {@link Workload}'s built-in zipfian mix; see
 * {@code dev.innet.rack.ycsb.SeededYcsbWorkload} for YCSB's core workloads.
 */
public interface OperationChooser {
    enum Kind {
        READ,
        /** A write of a record that exists (YCSB's update). */
        UPDATE,
        /** A write of a new record (YCSB's insert). */
        INSERT,
        /** A read, then a write of the same key (YCSB's read-modify-write). */
        READ_MODIFY_WRITE,
        DELETE
    }

    record Choice(Kind kind, long key) {}

    Choice next(RandomSource random);
}
