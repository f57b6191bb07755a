package dev.innet.app.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.app.BenchMain;
import dev.innet.app.bench.plot.PlotHtml;
import dev.innet.cli.Cli;
import dev.innet.protocol.ProtocolRegistry;
import dev.innet.rack.workload.OperationChooser;
import dev.innet.rack.workload.Workload;
import dev.innet.sim.SeededRandom;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /**
     * {@code --plot}: Exp#3 on 16 servers is one row, so its throughput figure has a bar per scheme and its
     * gain figure the model's two ratios beside the paper's 1.9 (§5.2 Exp#3) twice; a DIR that cannot be a
     * directory is refused before anything runs.
     */
    @Test
    void plotDrawsEachTableWithThePapersRatiosBesideTheModels(@TempDir Path dir) throws Exception {
        String[] args = {"farreach", "--exp", "3", "--servers", "16", "--ops", Long.toString(OPS), "--keys",
            Long.toString(KEYS), "--cache", Integer.toString(CACHE), "--plot", dir.toString()};
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, Cli.run("innet bench", new BenchMain(), args, System.out, new PrintStream(err, true, StandardCharsets.UTF_8)),
                err.toString(StandardCharsets.UTF_8));
        PlotHtml html = PlotHtml.read(dir);
        assertEquals(2, html.figures().size(), "Exp#3: throughput and gains");
        assertEquals(3, PlotHtml.modelMarks(html.figure("Throughput (MOPS, modelled)")));
        String gains = html.figure("FarReach's gain: model vs paper");
        assertEquals(2, PlotHtml.modelMarks(gains));
        assertEquals(2, PlotHtml.count(gains, "1.90 (§5.2 Exp#3)"), "the paper's ratio over NoCache and over NetCache");

        args[args.length - 1] = dir.resolve("index.html").resolve("sub").toString();
        int code = Cli.run("innet bench", new BenchMain(), args, System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        String refused = err.toString(StandardCharsets.UTF_8);
        assertTrue(refused.contains("--plot: cannot make the directory") && refused.contains("index.html is not a directory"),
                refused);
    }
}
