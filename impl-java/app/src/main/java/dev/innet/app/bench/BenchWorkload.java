package dev.innet.app.bench;

import dev.innet.rack.workload.KeyChooser;
import dev.innet.rack.workload.Workload;
import java.util.List;
import java.util.function.Supplier;

/**
 * What a benchmark run asks of its clients, and where their keys come from. This is the one place the
 * bench meets a workload generator: {@link PaperWorkloads} builds these from innet's own generators; an
 * adapter over YCSB's generators (impl-java/rack .../ycsb) can implement it instead.
 */
public interface BenchWorkload {
    /** Short name printed in tables ("A", "write 50%", ...). */
    String name();

    /** The rack workload: operation mix, key count, value size. */
    Workload rackWorkload();

    /** A fresh key source per client incarnation (seeded by the client's random source). */
    Supplier<KeyChooser> keys();

    /** The {@code n} most popular keys, hottest first: the cache's preloaded contents (the paper's load phase). */
    List<Long> hottestKeys(int n);

    /**
     * Rack operations per operation of the paper's workload: 1, or 1.5 for YCSB F, whose read-modify-write
     * the rack runs as a read and a write.
     */
    default double rackOpsPerOperation() {
        return 1;
    }
}
