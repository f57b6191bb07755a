package dev.innet.app.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.ProtocolRegistry;
import dev.innet.rack.workload.OperationChooser;
import dev.innet.rack.workload.Workload;
import dev.innet.sim.SeededRandom;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A small {@code ./innet bench farreach} over YCSB's workloads ({@link YcsbWorkloads}): real racks
 * (nocache.p4, netcache.p4, farreach.p4 on p4sim) on 16 servers and 10^6 keys with a 100-record cache.
 */
class FarReachBenchTest {
    private static final long KEYS = 1_000_000;
    private static final int CACHE = 100;
    private static final long OPS = 3_000;

    private static RackRunner runner() {
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        return new RackRunner(root, 42);
    }

    /** D inserts keys after the records, each rack's chooser from the start: it is built afresh per rack. */
    @Test
    void dInsertsNewKeysAndEveryRackGetsAFreshChooser() {
        BenchWorkload d = YcsbWorkloads.ycsb("D", KEYS);
        for (int rack = 0; rack < 2; rack++) {
            Workload w = d.rackWorkload();
            assertEquals(YcsbWorkloads.VALUE_BYTES, w.valueBytes());
            SeededRandom random = new SeededRandom(rack);
            long inserts = 0;
            for (int i = 0; i < 2_000; i++) {
                OperationChooser.Choice c = w.chooser().next(random);
                if (c.kind() == OperationChooser.Kind.INSERT) {
                    assertEquals(KEYS + inserts++, c.key(), "inserts extend the records, from the first one on");
                }
            }
            assertTrue(inserts > 50, "5% inserts: " + inserts);
        }
        assertEquals(List.of(KEYS - 1, KEYS - 2, KEYS - 3), d.hottestKeys(3), "read-latest: the newest records");
        assertEquals(List.of(), YcsbWorkloads.ycsb("Load", KEYS).hottestKeys(3), "Load: no key is hot");
    }

    @Test
    void unmodelledWorkloadsAndBadSettingsAreRefusedWithAReason() {
        var e = assertThrows(IllegalArgumentException.class, () -> YcsbWorkloads.ycsb("E", KEYS));
        assertTrue(e.getMessage().contains("range scans"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> YcsbWorkloads.ycsb("G", KEYS));
        assertTrue(e.getMessage().contains("A, B, C, D, F, Load"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> YcsbWorkloads.synthetic(1.5, KEYS));
        assertTrue(e.getMessage().contains("write ratio"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> YcsbWorkloads.ycsb("A", 0));
        assertTrue(e.getMessage().contains("keys"), e.getMessage());
    }

    /**
     * The switch answers much more of C (zipfian: the preloaded hottest keys stay hot) than of D (read-latest:
     * the preloaded newest keys cool as inserts push newer ones ahead of them), so FarReach gains more over
     * no-cache on C. And C and the read-only synthetic workload are the same YCSB settings: one set of runs.
     */
    @Test
    void theCacheAnswersMuchMoreOfCThanOfDAndEqualWorkloadsShareRuns() {
        Experiments ex = new Experiments(runner(), Testbed.farReachPaper(), CACHE, OPS);
        Experiments.Cell c = ex.cell("C", YcsbWorkloads.ycsb("C", KEYS), 16);
        ex.cell("0%", YcsbWorkloads.synthetic(0, KEYS), 16);
        assertEquals(3, ex.runs().size(), "C's runs serve the read-only synthetic row too");
        Experiments.Cell d = ex.cell("D", YcsbWorkloads.ycsb("D", KEYS), 16);
        double hitC = c.get("farreach").run().hitRatio();
        double hitD = d.get("farreach").run().hitRatio();
        assertTrue(hitC > 2 * hitD, "FarReach's switch answered C " + hitC + ", D " + hitD);
        assertTrue(c.frOverNoCache() > d.frOverNoCache(), "FarReach / no-cache: C " + c.frOverNoCache()
                + ", D " + d.frOverNoCache());
    }

    /** A run depends only on its seed and settings, inserts included (the bench prints the same tables). */
    @Test
    void theSameSeedGivesTheSameRunOfD() {
        BenchWorkload d = YcsbWorkloads.ycsb("D", KEYS);
        var farreach = ProtocolRegistry.byName("farreach");
        RunObservation first = runner().run(farreach, d, 16, CACHE, OPS);
        RunObservation again = runner().run(farreach, d, 16, CACHE, OPS);
        assertEquals(first.describe(), again.describe());
        assertTrue(first.writes() > 0, "D's inserts ran: " + first.describe());
    }
}
