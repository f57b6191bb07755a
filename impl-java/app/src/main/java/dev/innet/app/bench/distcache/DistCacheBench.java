package dev.innet.app.bench.distcache;

import dev.innet.app.bench.RackRunner;
import dev.innet.app.bench.distcache.DistCacheModel.Mechanism;
import dev.innet.app.bench.distcache.DistCacheModel.Result;
import dev.innet.app.bench.pegasus.PegasusWorkloads;
import dev.innet.app.bench.plot.PlotOption;
import dev.innet.app.bench.plot.PlotPage;
import dev.innet.cli.Cli;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./innet bench distcache} (issue 18, item 5; docs/benchmarks.md, "DistCache"): the DistCache paper's
 * §6.2-6.3 for DistCache, CachePartition, CacheReplication and NoCache. The real DistCache (p4/distcache.p4
 * on several p4sim switches, the real servers, clients and controller) is run to measure each operation's
 * message pattern; {@link DistCacheModel} prices the four mechanisms at the paper's scale.
 */
@Command(name = "innet bench distcache", mixinStandardHelpOptions = true, description = {
    "DistCache vs CachePartition, CacheReplication and NoCache: the DistCache paper's scalability and write-ratio",
    "experiments, the real DistCache run on p4sim switches for its message pattern, the paper's scale priced by",
    "the cost model (docs/benchmarks.md, \"DistCache\")."})
public final class DistCacheBench implements Callable<Integer> {
    static final List<Double> ALPHAS = List.of(0.9, 0.95, 0.99);

    @Spec
    CommandSpec spec;

    @Option(names = "--ops", description = "measured operations of each real DistCache run (default ${DEFAULT-VALUE})")
    long ops = 6_000;

    @Option(names = "--quick", description = "fewer points and 2,000 measured operations per real run")
    boolean quick;

    @Option(names = "--detail", description = "also print what every real run did")
    boolean detail;

    @Mixin
    PlotOption plot = new PlotOption();

    public static void main(String[] args) {
        Cli.main("innet bench distcache", new DistCacheBench(), args);
    }

    @Override
    public Integer call() throws IOException {
        if (ops < 1) {
            throw Cli.usageError(spec, "--ops must be positive");
        }
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        plot.prepare(root, "distcache");
        if (quick) {
            ops = 2_000;
        }
        PlotPage figures = run(System.out, new RackRunner(root, 42), DistCacheTestbed.paper(),
                quick ? List.of(4, 32) : List.of(2, 4, 8, 16, 32),
                quick ? List.of(0.0, 0.05, 0.2) : List.of(0.0, 0.01, 0.02, 0.05, 0.1, 0.2), 20_000, ops, detail);
        plot.write(figures, System.out);
        return 0;
    }

    /** Real runs: 2 spines, 2 leaves, 8 servers, the controller's capacity 80 objects per cache switch. */
    static MessagePattern probe(RackRunner runner, double alpha, double writeRatio, int keys, long ops) {
        return MessagePattern.measure(runner, PegasusWorkloads.zipf(alpha, writeRatio, keys), 2, 2, 8, 20, ops);
    }

    /** Runs the bench, printing its tables; returns their figures. */
    static PlotPage run(PrintStream out, RackRunner runner, DistCacheTestbed t, List<Integer> rackCounts, List<Double> writeRatios,
            int probeKeys, long ops, boolean detail) {
        out.printf("innet bench distcache: the real DistCache (p4/distcache.p4 on 2 spines, 2 leaves and the client ToR,"
                + " 8 servers, %,d keys, the controller's capacity 80 objects per cache switch, %,d measured ops) for its%n"
                + "message pattern;%n",
                probeKeys, ops);
        out.printf("the paper's scale priced by the cost model: racks x %d servers, as many spines, %d objects per cache"
                + " switch, %,d keys, switch = %.0f servers; throughput in servers' throughputs (docs/benchmarks.md)%n",
                t.serversPerRack(), t.objectsPerSwitch(), t.keys(), t.cacheNodeCapacity());
        out.println();
        out.println("Measured on the real DistCache (zipf 0.99):");
        out.println("| writes | reads answered by a cache switch | INV per write | server messages per copy"
                + " (INV + INV_ACK + UPD) | insertions in the window |");
        out.println("|---|---|---|---|---|");
        MessagePattern withWrites = null;
        for (double w : List.of(0.0, 0.2)) {
            MessagePattern mp = probe(runner, 0.99, w, probeKeys, ops);
            out.printf("| %.0f%% | %.3f | %.2f | %.2f | %d |%n", w * 100, mp.readHitRatio(), mp.invalidationsPerWrite(),
                    mp.messagesPerCopy(), mp.inserted());
            if (detail) {
                out.println("  " + mp.detail());
            }
            if (w > 0) {
                withWrites = mp;
            }
        }
        DistCacheModel model = new DistCacheModel(t, withWrites.invalidationsPerWrite(), withWrites.messagesPerCopy());
        DistCacheFigures figures = new DistCacheFigures();
        out.printf("the model takes %.2f INV per write and %.2f server messages per copy from the 20%% run%n",
                withWrites.invalidationsPerWrite(), withWrites.messagesPerCopy());
        out.println();
        out.println("Scalability (§6.2, Fig. 9c): read-only; throughput in servers' throughputs (per server in brackets)");
        out.println("| zipf | racks (servers) | NoCache | CachePartition | CacheReplication | DistCache | DistCache /"
                + " CacheReplication | DistCache bottleneck |");
        out.println("|---|---|---|---|---|---|---|---|");
        for (double a : ALPHAS) {
            for (int racks : rackCounts) {
                int servers = racks * t.serversPerRack();
                Result no = model.throughput(Mechanism.NOCACHE, racks, a, 0);
                Result part = model.throughput(Mechanism.CACHE_PARTITION, racks, a, 0);
                Result repl = model.throughput(Mechanism.CACHE_REPLICATION, racks, a, 0);
                Result dc = model.throughput(Mechanism.DISTCACHE, racks, a, 0);
                out.printf("| %.2f | %d (%d) | %s | %s | %s | %s | %.2f | %s |%n", a, racks, servers, cell(no, servers),
                        cell(part, servers), cell(repl, servers), cell(dc, servers), dc.throughput() / repl.throughput(),
                        dc.bottleneck());
                figures.scalability(a, servers, no, part, repl, dc);
            }
        }
        out.println("paper: DistCache the same as CacheReplication, scaling linearly; CachePartition and NoCache stop"
                + " scaling (no numbers in the text: the figure only)");
        for (double a : ALPHAS) {
            double hottest = model.hottestShare(a);
            out.printf("zipf %.2f: the hottest key is %.2f%% of requests; DistCache serves it from two switches, so it"
                    + " is bounded by %.0f; CacheReplication from every spine%n", a, hottest * 100,
                    2 * t.cacheNodeCapacity() / hottest);
        }
        int racks = rackCounts.get(rackCounts.size() - 1);
        out.println();
        out.printf("Write ratio (§6.3, Fig. 10): %d racks, %d spines; throughput in servers' throughputs%n", racks, racks);
        out.println("| zipf | writes | NoCache | CachePartition | CacheReplication | DistCache | DistCache /"
                + " CacheReplication | DistCache bottleneck | DistCache, cached keys' coherence only |");
        out.println("|---|---|---|---|---|---|---|---|---|");
        for (double a : List.of(0.9, 0.99)) {
            for (double w : writeRatios) {
                Result no = model.throughput(Mechanism.NOCACHE, racks, a, w);
                Result part = model.throughput(Mechanism.CACHE_PARTITION, racks, a, w);
                Result repl = model.throughput(Mechanism.CACHE_REPLICATION, racks, a, w);
                Result dc = model.throughput(Mechanism.DISTCACHE, racks, a, w);
                Result cachedOnly = model.throughput(Mechanism.DISTCACHE_CACHED_COHERENCE, racks, a, w);
                out.printf("| %.2f | %.0f%% | %.0f | %.0f | %.0f | %.0f | %.2f | %s | %.0f |%n", a, w * 100, no.throughput(),
                        part.throughput(), repl.throughput(), dc.throughput(), dc.throughput() / repl.throughput(),
                        dc.bottleneck(), cachedOnly.throughput());
                figures.writeRatio(a, w, no, part, repl, dc);
            }
        }
        out.println("paper: CacheReplication drops very quickly with writes; DistCache slowly; NoCache not at all");
        out.println("last column: a counterfactual DistCache server that invalidates and updates only the copies of"
                + " cached keys, priced as CachePartition and CacheReplication are (the real server, measured above,"
                + " does both layers on every write)");
        return figures.page(racks);
    }

    private static String cell(Result r, int servers) {
        return String.format("%.0f (%.2f)", r.throughput(), r.throughput() / servers);
    }
}
