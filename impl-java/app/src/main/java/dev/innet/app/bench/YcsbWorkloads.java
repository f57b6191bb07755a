package dev.innet.app.bench;

import dev.innet.rack.workload.KeyChooser;
import dev.innet.rack.workload.Workload;
import dev.innet.rack.ycsb.SeededYcsbWorkload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;

/**
 * The FarReach paper's workloads (§5.1-5.3) as YCSB core workloads: each is a set of YCSB CoreWorkload
 * properties that the seeded adapter ({@link SeededYcsbWorkload}) runs with YCSB's operation mix and key
 * choice, every random number drawn from the rack's seed.
 * <ul>
 * <li>A, B, C, D, F (Exp#1): the settings of YCSB 0.17.0's shipped workloads/workloada..f, i.e. their
 * read, update, insert and read-modify-write proportions and request distribution (zipfian; latest for
 * D, whose 5% inserts add new keys that become the hottest at once).
 * <li>Load (Exp#1): the paper's "Load (inserting records)", uniform: inserts only, each of a key not
 * written before. That is YCSB's load phase (every record inserted once), and it keeps what makes Load
 * "non-skewed" in the paper: no key is requested twice, so no cache can help, and hashing spreads the
 * keys evenly over the servers. Uniform updates of existing keys would do nearly the same at 10^8 keys,
 * but repeat keys at the small key counts of tests and --keys; Exp#5 runs those ({@link #uniformUpdates}).
 * <li>The synthetic workloads of Exp#4 (zipfian, a share of updates) and Exp#5's uniform point (updates
 * only, uniform).
 * </ul>
 * The paper's settings on top of YCSB's: recordcount = the bench's key count (the paper's 10^8), one
 * 128-byte field per record (fieldcount=1, fieldlength=128: the rack's values are the record's bytes),
 * and the rack's 16-byte keys. YCSB's own 10 x 100-byte records would be too large for a switch to cache.
 */
public final class YcsbWorkloads {
    /** §5.1: "each of which contains a 16-byte key and 128-byte value". */
    public static final int VALUE_BYTES = 128;

    /** The workloads of Exp#1 (Fig. 7), in table order; E (range scans) is left out, as the paper does. */
    public static final List<String> EXP1 = List.of("A", "B", "C", "D", "F", "Load");

    private YcsbWorkloads() {}

    /** An Exp#1 workload: "A", "B", "C", "D", "F" (YCSB's) or "Load". */
    public static BenchWorkload ycsb(String name, long keys) {
        return switch (name) {
            case "A" -> core(name, keys, "zipfian", 0.5, 0.5, 0, 0);
            case "B" -> core(name, keys, "zipfian", 0.95, 0.05, 0, 0);
            case "C" -> core(name, keys, "zipfian", 1, 0, 0, 0);
            case "D" -> core(name, keys, "latest", 0.95, 0, 0.05, 0);
            case "F" -> core(name, keys, "zipfian", 0.5, 0, 0, 0.5);
            case "Load" -> core(name, keys, "uniform", 0, 0, 1, 0);
            case "E" -> throw new IllegalArgumentException(
                    "YCSB workload E is not modelled: range scans are not a switch cache's operation (the paper leaves it out too)");
            default -> throw new IllegalArgumentException("no YCSB workload '" + name + "' (" + String.join(", ", EXP1) + ")");
        };
    }

    /** Exp#4's synthetic workload: zipfian (0.99), a share {@code writeRatio} of updates, the rest reads. */
    public static BenchWorkload synthetic(double writeRatio, long keys) {
        if (!(writeRatio >= 0 && writeRatio <= 1)) {
            throw new IllegalArgumentException("a write ratio is in [0, 1], got " + writeRatio);
        }
        return core(String.format("write %.0f%%", writeRatio * 100), keys, "zipfian", 1 - writeRatio, writeRatio, 0, 0);
    }

    /** Updates of existing keys chosen uniformly (Exp#5's uniform point). */
    public static BenchWorkload uniformUpdates(String name, long keys) {
        return core(name, keys, "uniform", 0, 1, 0, 0);
    }

    private static BenchWorkload core(String name, long keys, String distribution, double read, double update,
            double insert, double readModifyWrite) {
        if (keys < 1 || keys > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a rack workload has 1 to 2^31-1 keys, got " + keys);
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("recordcount", Long.toString(keys));
        // every proportion is set: CoreWorkload's defaults (95% reads, 5% updates) would fill the gaps
        p.put("readproportion", Double.toString(read));
        p.put("updateproportion", Double.toString(update));
        p.put("insertproportion", Double.toString(insert));
        p.put("readmodifywriteproportion", Double.toString(readModifyWrite));
        p.put("scanproportion", "0");
        p.put("requestdistribution", distribution);
        p.put("fieldcount", "1");
        p.put("fieldlength", Integer.toString(VALUE_BYTES));
        // operationcount is left out: it only sizes zipfian's room for inserted keys, and no workload here
        // has both (D's inserts are read through latest)
        Core w = new Core(name, Map.copyOf(p));
        w.chooser(); // refuses bad settings now rather than in the middle of a benchmark
        return w;
    }

    /**
     * A workload by its YCSB properties. The adapter is stateful (its inserts), so each rack gets a fresh
     * one; {@code keys()} is null because the chooser picks the keys, and {@code rackOpsPerOperation()}
     * is 1 because it runs F's read-modify-write as one operation (a rack client completes it once).
     */
    private record Core(String name, Map<String, String> settings) implements BenchWorkload {
        SeededYcsbWorkload chooser() {
            Properties p = new Properties();
            p.putAll(settings);
            return SeededYcsbWorkload.of(p);
        }

        @Override
        public Workload rackWorkload() {
            SeededYcsbWorkload chooser = chooser();
            // the zipfian and mix fields are unused with a chooser
            return new Workload((int) chooser.recordCount(), 0, 0, 0, chooser.valueBytes(), 0).withChooser(chooser);
        }

        @Override
        public Supplier<KeyChooser> keys() {
            return null;
        }

        @Override
        public List<Long> hottestKeys(int n) {
            return chooser().hottestKeys(n);
        }
    }
}
