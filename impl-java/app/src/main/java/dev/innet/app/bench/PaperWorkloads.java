package dev.innet.app.bench;

import dev.innet.rack.workload.KeyChooser;
import dev.innet.rack.workload.RankSpaceZipfian;
import dev.innet.rack.workload.Workload;
import dev.innet.sim.RandomSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The FarReach paper's workloads (§5.1-5.3) over innet's generators: 16-byte keys, 128-byte values, keys
 * chosen like YCSB's scrambled zipfian (0.99 over 10^10 ranks hashed onto the key count), uniform for Load.
 * Not modelled: YCSB D (read-latest needs inserts the rack's clients do not make) and E (range scans).
 */
public final class PaperWorkloads {
    public static final int VALUE_BYTES = 128;
    public static final double ZIPF = 0.99;

    private PaperWorkloads() {}

    /** YCSB A, B, C, F (zipfian) and Load (uniform writes): Exp#1. */
    public static BenchWorkload ycsb(String letter, long keys) {
        return switch (letter) {
            case "A" -> zipfian("A", keys, 0.5, 1);
            case "B" -> zipfian("B", keys, 0.95, 1);
            case "C" -> zipfian("C", keys, 1.0, 1);
            // F: 50% reads, 50% read-modify-writes = per operation 1.5 requests, of which 1 read and 0.5 write
            case "F" -> zipfian("F", keys, 1 / 1.5, 1.5);
            case "Load" -> uniformWrites("Load", keys);
            default -> throw new IllegalArgumentException("YCSB workload " + letter + " is not modelled (A, B, C, F, Load)");
        };
    }

    /** The synthetic workload of Exp#4: zipfian 0.99, a fraction {@code writeRatio} of writes. */
    public static BenchWorkload synthetic(double writeRatio, long keys) {
        return zipfian(String.format("write %.0f%%", writeRatio * 100), keys, 1 - writeRatio, 1);
    }

    /** Uniform write-only (Exp#5's uniform point). */
    public static BenchWorkload uniformWrites(String name, long keys) {
        return new Simple(name, new Workload(clampKeys(keys), 0, 0, 0, VALUE_BYTES, 0), () -> new Uniform(keys),
                n -> List.of(), 1);
    }

    private static BenchWorkload zipfian(String name, long keys, double readFraction, double rackOpsPerOp) {
        Supplier<KeyChooser> chooser = () -> new RankSpaceZipfian(keys, RankSpaceZipfian.YCSB_RANK_SPACE, ZIPF);
        return new Simple(name, new Workload(clampKeys(keys), ZIPF, readFraction, 0, VALUE_BYTES, 0), chooser,
                n -> hottest(new RankSpaceZipfian(keys, RankSpaceZipfian.YCSB_RANK_SPACE, ZIPF), keys, n), rackOpsPerOp);
    }

    /** The rack's Workload record counts keys in an int; the key chooser carries the real count. */
    private static int clampKeys(long keys) {
        return (int) Math.min(keys, Integer.MAX_VALUE);
    }

    private static List<Long> hottest(RankSpaceZipfian z, long keys, int n) {
        Set<Long> out = new LinkedHashSet<>();
        for (long rank = 0; out.size() < Math.min(n, keys) && rank < 100L * n; rank++) {
            out.add(z.itemOfRank(rank));
        }
        return new ArrayList<>(out);
    }

    private record Uniform(long keys) implements KeyChooser {
        @Override
        public long next(RandomSource random) {
            return random.nextLong(keys);
        }
    }

    private record Simple(String name, Workload rackWorkload, Supplier<KeyChooser> keys, Hottest hot,
            double rackOpsPerOperation) implements BenchWorkload {
        @Override
        public List<Long> hottestKeys(int n) {
            return hot.of(n);
        }
    }

    private interface Hottest {
        List<Long> of(int n);
    }
}
