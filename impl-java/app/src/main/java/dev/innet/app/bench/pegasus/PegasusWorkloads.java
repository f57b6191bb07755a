package dev.innet.app.bench.pegasus;

import dev.innet.app.bench.BenchWorkload;
import dev.innet.rack.workload.KeyChooser;
import dev.innet.rack.workload.Workload;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.LongStream;

/**
 * The Pegasus paper's workloads (§9): one million keys chosen by a Zipf distribution (α 0.9-1.2) or
 * uniformly, 128-byte values, a share of writes (none in §9.1, 0-100% in §9.2). The paper's keys are 64
 * bytes; innet's are 16 (the wire format's key field), which only changes frame sizes.
 */
public final class PegasusWorkloads {
    /** §9: "The total key space consists of one million randomly generated keys". */
    public static final int PAPER_KEYS = 1_000_000;
    /** §9: "64-byte keys and 128-byte values". */
    public static final int VALUE_BYTES = 128;

    /** One tabulated distribution per (keys, α): a million doubles, shared by every run that needs it. */
    private static final Map<String, ZipfKeys> TABLES = new ConcurrentHashMap<>();

    private PegasusWorkloads() {}

    /** Zipf α over {@code keys} keys with a fraction {@code writeRatio} of writes (the rest reads). */
    public static BenchWorkload zipf(double alpha, double writeRatio, int keys) {
        if (!(writeRatio >= 0 && writeRatio <= 1)) {
            throw new IllegalArgumentException("write ratio must be in [0, 1], got " + writeRatio);
        }
        ZipfKeys table = TABLES.computeIfAbsent(keys + "|" + alpha, k -> new ZipfKeys(keys, alpha));
        String name = String.format("zipf %.2f, %.0f%% writes", alpha, writeRatio * 100);
        return new Zipf(name, new Workload(keys, 0, 1 - writeRatio, 0, VALUE_BYTES, 0), () -> table);
    }

    private record Zipf(String name, Workload rackWorkload, Supplier<KeyChooser> keys) implements BenchWorkload {
        /** Key i is the i-th most popular (ZipfKeys does not scramble ranks). */
        @Override
        public List<Long> hottestKeys(int n) {
            return LongStream.range(0, Math.min(n, rackWorkload.keys())).boxed().toList();
        }
    }
}
