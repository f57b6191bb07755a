package dev.innet.rack.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.innet.sim.RandomSource;
import dev.innet.sim.SeededRandom;
import org.junit.jupiter.api.Test;

class RankSpaceZipfianTest {
    @Test
    void zetaOfYcsbsRankSpaceIsYcsbsConstant() {
        // YCSB's ScrambledZipfianGenerator hard-codes zeta(10^10, 0.99) = 26.46902820178302.
        assertEquals(26.46902820178302, new RankSpaceZipfian(1000, RankSpaceZipfian.YCSB_RANK_SPACE, 0.99).zeta(), 1e-6);
    }

    @Test
    void tailApproximationMatchesTheExactSum() {
        double exact = 0;
        for (int k = 1; k <= 3_000_000; k++) {
            exact += Math.pow(k, -0.9);
        }
        assertEquals(exact, RankSpaceZipfian.zeta(3_000_000, 0.9), 1e-9);
    }

    @Test
    void hottestKeyHasRankZerosProbability() {
        var z = new RankSpaceZipfian(1_000_000, RankSpaceZipfian.YCSB_RANK_SPACE, 0.99);
        RandomSource r = new SeededRandom(7);
        long hot = z.itemOfRank(0);
        int n = 400_000;
        int hits = 0;
        for (int i = 0; i < n; i++) {
            long k = z.next(r);
            if (k == hot) {
                hits++;
            }
            if (k < 0 || k >= 1_000_000) {
                throw new AssertionError("key out of range: " + k);
            }
        }
        // 1/zeta plus the near-uniform background of folded ranks (< 1e-6 per key)
        assertEquals(1 / 26.469, hits / (double) n, 0.0015);
    }

    @Test
    void badParametersAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RankSpaceZipfian(0, 10, 0.9));
        assertThrows(IllegalArgumentException.class, () -> new RankSpaceZipfian(10, 10, 1.0));
    }
}
