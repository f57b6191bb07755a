package dev.innet.app.bench.lake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The LaKe model reproduces the paper's figures it is calibrated on (13.1 Mqps and 1.16 µs on
 * first-layer hits, 13.6x memcached, 6.3 Mqps and 5.6 µs from DRAM), and mixes fall between them.
 */
class LakeModelTest {
    private static LakeModel.Figures lake(double l1, double l2) {
        return LakeModel.figures(new LakeModel.Mix("m", l1, l2), true, 0.5, 1);
    }

    @Test
    void allHitsReproduceThePapersFigures() {
        LakeModel.Figures hits = lake(1, 0);
        LakeModel.Figures host = LakeModel.figures(new LakeModel.Mix("memcached", 0, 0), false, 0.5, 1);
        assertEquals(13.1e6, hits.saturationQps(), 1e3);
        assertEquals(1.16e-6, hits.zeroLoadMeanS(), 1e-9);
        assertEquals(13.6, hits.saturationQps() / host.saturationQps(), 1e-6);
        assertEquals(LakeModel.MEMCACHED_LATENCY_S, host.zeroLoadMeanS(), 1e-9);
        LakeModel.Figures dram = lake(0, 1);
        assertEquals(6.3e6, dram.saturationQps(), 1e3, "the paper's DRAM-only rate");
        assertEquals(5.6e-6, dram.zeroLoadMeanS(), 1e-9);
        assertEquals("DRAM", dram.bottleneck());
    }

    @Test
    void missesMoveTheBottleneckToTheHost() {
        LakeModel.Figures mixed = lake(0.1, 0.5);
        assertEquals("host memcached", mixed.bottleneck());
        // 40% of GETs reach memcached: it saturates at 2.5x its own rate
        assertEquals(2.5, mixed.saturationQps() / LakeModel.MEMCACHED_QPS, 1e-6);
        assertTrue(mixed.zeroLoadMeanS() > lake(1, 0).zeroLoadMeanS() && mixed.zeroLoadMeanS() < LakeModel.MEMCACHED_LATENCY_S * 1.1);
        assertTrue(mixed.atLoad().p99() >= mixed.atLoad().p50());
    }

    @Test
    void hitRatiosMustBeShares() {
        assertThrows(IllegalArgumentException.class, () -> new LakeModel.Mix("bad", 0.7, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new LakeModel.Mix("bad", -0.1, 0.5));
    }

    @Test
    void loadResultsSurviveTheTripThroughAnotherProcess() {
        McLoad.Result r = new McLoad.Result(1234, 1200, 3, 5.0, 81.5, 900.25, 100.0);
        McLoad.Result back = McLoad.Result.parse("noise\n" + r.line() + "\n");
        assertEquals(r.gets(), back.gets());
        assertEquals(r.timeouts(), back.timeouts());
        assertEquals(81.5, back.p50Micros(), 0.05);
        assertEquals(246.8, back.opsPerSecond(), 0.01);
        assertThrows(IllegalArgumentException.class, () -> McLoad.Result.parse("nothing here"));
        assertThrows(IllegalArgumentException.class, () -> new McLoad.Target(null, null, 10, 0, 32), "keys need a length");
    }
}
