package dev.innet.app.bench.distcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.app.bench.RackRunner;
import dev.innet.app.bench.distcache.DistCacheModel.Mechanism;
import dev.innet.app.bench.plot.PlotHtml;
import dev.innet.app.bench.plot.PlotOption;
import dev.innet.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny {@code ./innet bench distcache}: one real DistCache run (p4/distcache.p4 on 2 spines, 2 leaves and
 * the client ToR) for its message pattern, and the model on a small testbed (8 racks of 8 servers, 1 million
 * keys). Each assertion is a finding a broken protocol or broken pricing would lose.
 */
class DistCacheBenchTest {
    /** The paper's testbed (32 servers per rack, 100 objects per switch, 100 million keys), 20,000 keys placed one by one. */
    private static final DistCacheTestbed PAPER = new DistCacheTestbed(32, 100, 100_000_000L, 32, 0.1, 1.0, 20_000);

    @Test
    void realDistCacheInvalidatesBothLayersPerWriteAndAnswersReadsFromTheSwitches() {
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        MessagePattern mp = DistCacheBench.probe(new RackRunner(root, 42), 0.99, 0.2, 5_000, 1_500);
        assertTrue(mp.writes() > 200 && mp.reads() > 1_000, mp.detail());
        assertTrue(mp.readHitRatio() > 0.05, "a cache switch answered " + mp.readHitRatio() + " of reads: " + mp.detail());
        // one INV per layer per write (resends only add), each acknowledged, then one UPD per layer
        assertTrue(mp.invalidationsPerWrite() >= 1.9 && mp.invalidationsPerWrite() < 2.5, mp.detail());
        assertTrue(mp.messagesPerCopy() > 2.8 && mp.messagesPerCopy() < 3.5, mp.detail());
    }

    @Test
    void distCacheScalesLikeReplicationAndBeatsPartitionUnderSkew() {
        DistCacheModel model = new DistCacheModel(PAPER, 2, 3);
        double part = model.throughput(Mechanism.CACHE_PARTITION, 32, 0.99, 0).throughput();
        double repl = model.throughput(Mechanism.CACHE_REPLICATION, 32, 0.99, 0).throughput();
        double dc = model.throughput(Mechanism.DISTCACHE, 32, 0.99, 0).throughput();
        assertTrue(dc > 1.5 * part, "DistCache " + dc + " vs CachePartition " + part);
        // two copies of the hottest key, each a switch of 32 servers' throughput, bound DistCache; the power of
        // two choices gets close to the lower of that bound and replication's
        double twoCopies = 2 * PAPER.cacheNodeCapacity() / model.hottestShare(0.99);
        assertTrue(dc <= twoCopies * (1 + 1e-9) && dc >= 0.8 * Math.min(repl, twoCopies),
                "DistCache " + dc + ", CacheReplication " + repl + ", two-copy bound " + twoCopies);
        // NoCache is bounded by the server of the hottest key, which alone carries that key's share
        var no = model.throughput(Mechanism.NOCACHE, 32, 0.99, 0);
        assertTrue(no.throughput() <= 1 / model.hottestShare(0.99) + 1e-9, no.throughput() + " " + no.bottleneck());
        assertTrue(no.bottleneck().startsWith("server"), no.bottleneck());
        // near-linear at zipf 0.9: per server, 32 racks keep at least 75% of 8 racks' throughput
        double dc8 = model.throughput(Mechanism.DISTCACHE, 8, 0.9, 0).throughput();
        double dc32 = model.throughput(Mechanism.DISTCACHE, 32, 0.9, 0).throughput();
        assertTrue(dc32 / 1024 > 0.75 * dc8 / 256, "DistCache per server: 32 racks " + dc32 / 1024 + ", 8 racks " + dc8 / 256);
    }

    @Test
    void writesCostReplicationMoreThanDistCacheAndNoCacheNothing() {
        DistCacheModel model = new DistCacheModel(PAPER, 2, 3);
        double replW = model.throughput(Mechanism.CACHE_REPLICATION, 32, 0.99, 0.05).throughput();
        double dcW = model.throughput(Mechanism.DISTCACHE, 32, 0.99, 0.05).throughput();
        assertTrue(dcW > 2 * replW, "at 5% writes DistCache " + dcW + " vs CacheReplication " + replW);
        assertEquals(model.throughput(Mechanism.NOCACHE, 32, 0.99, 0).throughput(),
                model.throughput(Mechanism.NOCACHE, 32, 0.99, 0.2).throughput(), 1e-6);
        assertThrows(IllegalArgumentException.class, () -> model.throughput(Mechanism.DISTCACHE, 8, 0.99, 1.5));
    }

    /**
     * Why CachePartition passes DistCache once there are writes: not the real server's invalidation of both
     * layers for cold keys (a server that updates only cached keys' copies gains under 2%), but the two copies
     * of every hot key: the hottest key's server, the bottleneck of both, pays two copies' coherence per write
     * against CachePartition's one. With coherence free, DistCache is back within its read-only distance.
     */
    @Test
    void withWritesDistCachePaysForTwoCopiesOfTheHottestKeyNotForColdKeys() {
        DistCacheModel model = new DistCacheModel(PAPER, 2, 3);
        double dc = model.throughput(Mechanism.DISTCACHE, 32, 0.9, 0.05).throughput();
        double cachedOnly = model.throughput(Mechanism.DISTCACHE_CACHED_COHERENCE, 32, 0.9, 0.05).throughput();
        double part = model.throughput(Mechanism.CACHE_PARTITION, 32, 0.9, 0.05).throughput();
        System.out.printf("zipf 0.9, 5%% writes: DistCache %.0f, cached keys' coherence only %.0f, CachePartition %.0f%n",
                dc, cachedOnly, part);
        assertTrue(part > dc && cachedOnly < 1.02 * dc && cachedOnly >= dc, dc + " " + cachedOnly + " " + part);
        assertEquals(model.throughput(Mechanism.DISTCACHE, 32, 0.9, 0).throughput(),
                model.throughput(Mechanism.DISTCACHE_CACHED_COHERENCE, 32, 0.9, 0).throughput(), 1e-6);
        DistCacheTestbed free = new DistCacheTestbed(32, 100, 100_000_000L, 32, 0, 0, 20_000);
        DistCacheModel noCoherenceCost = new DistCacheModel(free, 2, 3);
        double dcFree = noCoherenceCost.throughput(Mechanism.DISTCACHE, 32, 0.9, 0.05).throughput();
        double partFree = noCoherenceCost.throughput(Mechanism.CACHE_PARTITION, 32, 0.9, 0.05).throughput();
        System.out.printf("the same with coherence free: DistCache %.0f, CachePartition %.0f%n", dcFree, partFree);
        assertTrue(dcFree >= 0.95 * partFree, dcFree + " vs " + partFree);
    }

    /**
     * The bench with its figures, small: a line per mechanism against servers (Fig. 9c) for each skew and against
     * the write ratio (Fig. 10) for two; the paper's text has no number for them, and the captions say so.
     */
    @Test
    void plotDrawsFig9cAndFig10PerSkewAndSaysThePaperStatesNoNumbers(@TempDir Path dir) throws Exception {
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        var page = DistCacheBench.run(quiet, new RackRunner(root, 42), PAPER, List.of(4, 8), List.of(0.0, 0.05), 5_000, 1_000,
                false);
        PlotOption.into(dir).write(page, quiet);
        PlotHtml html = PlotHtml.read(dir);
        assertEquals(DistCacheBench.ALPHAS.size() + 2, html.figures().size(), "Fig. 9c per skew, Fig. 10 at zipf 0.9 and 0.99");
        for (String figure : html.figures()) {
            assertEquals(4 * 2, PlotHtml.modelMarks(figure), "four mechanisms at two rack counts or two write ratios");
            assertTrue(figure.contains("The paper states no numbers for Fig."), figure);
        }
    }

    @Test
    void badOptionsAreRefused() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run("innet bench distcache", new DistCacheBench(), new String[] {"--ops", "0"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--ops"));
        err.reset();
        code = Cli.run("innet bench distcache", new DistCacheBench(), new String[] {"--plot", "README.md/figures"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code, err.toString(StandardCharsets.UTF_8));
        String refused = err.toString(StandardCharsets.UTF_8);
        assertTrue(refused.contains("--plot") && refused.contains("README.md is not a directory"), refused);
        assertEquals("", out.toString(StandardCharsets.UTF_8), "nothing ran");
    }
}
