package dev.innet.app.bench;

import dev.innet.rack.workload.KeyChooser;
import dev.innet.rack.workload.Workload;
import java.util.List;
import java.util.function.Supplier;

/**
 * What a benchmark run asks of its clients, and where their keys come from. This is the one place the
 * bench meets a workload generator: {@link YcsbWorkloads} builds the FarReach bench's from YCSB's core
 * workload (through the seeded adapter); other benches build theirs from innet's generators.
 */
public interface BenchWorkload {
    /** Short name printed in tables ("A", "write 50%", ...). */
    String name();

    /** The rack workload: operation mix, key count, value size. A stateful chooser is built afresh per call. */
    Workload rackWorkload();

    /**
     * A fresh key source per client incarnation (seeded by the client's random source), or null when the
     * rack workload has an {@code OperationChooser}, which picks the keys itself.
     */
    Supplier<KeyChooser> keys();

    /** The {@code n} most popular keys, hottest first: the cache's preloaded contents (the paper's load phase). */
    List<Long> hottestKeys(int n);

    /**
     * Rack operations per operation of the paper's workload: 1 when a rack client completes each of the
     * paper's operations once (the YCSB adapter runs F's read-modify-write as one operation); more for a
     * workload that splits one into several (e.g. 1.5 for F run as separate reads and writes).
     */
    default double rackOpsPerOperation() {
        return 1;
    }
}
