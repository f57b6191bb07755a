package dev.innet.app.bench;

import dev.innet.protocol.ProtocolRegistry;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The FarReach paper's experiments on simulated racks through the cost model: each cell runs the rack
 * once per protocol and prices what it did on the paper's testbed. Runs are memoised by (protocol,
 * workload, servers), so a cell two experiments share (YCSB A on 16 servers) runs once.
 */
public final class Experiments {
    /** The schemes compared, in table order. */
    public static final List<String> SCHEMES = List.of("nocache", "netcache", "farreach");

    private final RackRunner runner;
    private final Testbed testbed;
    private final int cache;
    private final long ops;
    private final Map<String, Modelled> done = new LinkedHashMap<>();

    public Experiments(RackRunner runner, Testbed testbed, int cache, long ops) {
        this.runner = runner;
        this.testbed = testbed;
        this.cache = cache;
        this.ops = ops;
    }

    /** One row: the three schemes on one workload and rack size. */
    public record Cell(String label, BenchWorkload workload, int servers, Map<String, Modelled> schemes) {
        public Modelled get(String scheme) {
            return schemes.get(scheme);
        }

        public double frOverNoCache() {
            return get("farreach").opsPerSecond() / get("nocache").opsPerSecond();
        }

        public double frOverNetCache() {
            return get("farreach").opsPerSecond() / get("netcache").opsPerSecond();
        }
    }

    public Cell cell(String label, BenchWorkload w, int servers) {
        return cell(label, w, servers, ops);
    }

    /** A cell measured over {@code runOps} operations per run (more for large racks: see BenchMain). */
    public Cell cell(String label, BenchWorkload w, int servers, long runOps) {
        return cell(label, w, servers, runOps, RackRunner.CLIENTS);
    }

    /** A cell whose racks run {@code clients} closed-loop clients (see RackRunner). */
    public Cell cell(String label, BenchWorkload w, int servers, long runOps, int clients) {
        Map<String, Modelled> row = new LinkedHashMap<>();
        for (String scheme : SCHEMES) {
            // the rack workload's text names its settings (a YCSB chooser's too, not its state), so two
            // workloads that draw alike share a run: YCSB C and the read-only synthetic, A and 50% writes
            String key = scheme + "|" + w.rackWorkload() + "|" + w.rackOpsPerOperation() + "|" + servers + "|" + runOps
                    + "|" + clients;
            row.put(scheme, done.computeIfAbsent(key, k -> Modelled.of(runner.run(ProtocolRegistry.byName(scheme), w,
                    servers, cache, runOps, clients), w, testbed)));
        }
        return new Cell(label, w, servers, row);
    }

    /** Every run so far, in the order they ran. */
    public Collection<Modelled> runs() {
        return done.values();
    }

    public long ops() {
        return ops;
    }

    public Testbed testbed() {
        return testbed;
    }
}
