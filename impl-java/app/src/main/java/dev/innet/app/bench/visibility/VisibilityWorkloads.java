package dev.innet.app.bench.visibility;

import dev.innet.app.bench.BenchWorkload;
import dev.innet.rack.workload.KeyChooser;
import dev.innet.rack.workload.RankSpaceZipfian;
import dev.innet.rack.workload.Workload;
import dev.innet.rack.workload.ZipfianGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The visibility paper's key-value workloads (§V-A 3): 250 million keys, zipf 0.99 over the keys
 * themselves (not YCSB's rank space: the paper states that "49.1% operations access the hottest 1‱ keys",
 * which a zipfian over 250 M keys gives), 128-byte records. Write-only is Fig. 6's workload; 50% writes is
 * its "write-heavy" mix (Fig. 7, Fig. 10).
 */
final class VisibilityWorkloads {
    static final long PAPER_KEYS = 250_000_000L;
    static final double ZIPF = 0.99;
    /** §V-A 3: "the size of each record is 128 bytes, the key is 8 bytes". */
    static final int VALUE_BYTES = 120;

    private VisibilityWorkloads() {}

    static BenchWorkload of(String name, double writeFraction, long keys) {
        if (!(writeFraction > 0 && writeFraction <= 1)) {
            throw new IllegalArgumentException("write fraction in (0, 1]: " + writeFraction);
        }
        double zeta = RankSpaceZipfian.zeta(keys, ZIPF);
        Workload rack = new Workload((int) Math.min(keys, Integer.MAX_VALUE), ZIPF, 1 - writeFraction, 0, VALUE_BYTES, 0);
        Supplier<KeyChooser> chooser = () -> new ZipfianGenerator(keys, ZIPF, true, zeta);
        return new BenchWorkload() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Workload rackWorkload() {
                return rack;
            }

            @Override
            public Supplier<KeyChooser> keys() {
                return chooser;
            }

            @Override
            public List<Long> hottestKeys(int n) {
                ZipfianGenerator z = new ZipfianGenerator(keys, ZIPF, true, zeta);
                List<Long> out = new ArrayList<>();
                for (long rank = 0; rank < Math.min(n, keys); rank++) {
                    out.add(z.itemOfRank(rank));
                }
                return out;
            }
        };
    }

    /** The share of operations that go to the {@code hottest} most popular of {@code keys} keys. */
    static double shareOfHottest(long hottest, long keys) {
        return RankSpaceZipfian.zeta(hottest, ZIPF) / RankSpaceZipfian.zeta(keys, ZIPF);
    }
}
