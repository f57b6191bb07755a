package dev.innet.app;

import dev.innet.app.bench.BenchWorkload;
import dev.innet.app.bench.Experiments;
import dev.innet.app.bench.FarReachFigures;
import dev.innet.app.bench.LatencyCurve;
import dev.innet.app.bench.PaperFigures;
import dev.innet.app.bench.RackRunner;
import dev.innet.app.bench.RatioTable;
import dev.innet.app.bench.Stated;
import dev.innet.app.bench.Testbed;
import dev.innet.app.bench.YcsbWorkloads;
import dev.innet.app.bench.plot.PlotOption;
import dev.innet.cli.Cli;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./innet bench farreach}: the FarReach paper's Exp#1-5 on simulated racks, priced by the cost model.
 *
 * <p>Method (docs/benchmarks.md): each protocol's rack runs the workload on the real P4 program and the real
 * servers, controller and clients; the switch counts every frame per host and kind. The cost model turns
 * those counts into a queueing network of the paper's testbed (client machines, NICs, switch pipelines,
 * servers at RocksDB's measured rate) and reports its saturation throughput (the paper's server-rotation
 * method measures the same bound) and, by discrete-event simulation, latencies at a target load. The
 * workloads are YCSB's core workloads, drawn from the run's seed ({@link YcsbWorkloads}).
 */
@Command(name = "innet bench", mixinStandardHelpOptions = true, description = {
    "no-cache vs NetCache vs FarReach: the FarReach paper's Exp#1 (YCSB A-D, F, Load), Exp#2 (latency),",
    "Exp#3 (16..128 servers), Exp#4 (write ratios) and Exp#5's uniform check, modelled on the paper's testbed,",
    "with the paper's figures alongside (method and constants: docs/benchmarks.md)."})
public final class BenchMain implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "farreach", description = "what to benchmark (only farreach so far)")
    String target;

    @Option(names = "--exp", split = ",", paramLabel = "N,N,...", description = "experiments to run: 1,2,3,4,5 (default all)")
    List<Integer> experiments = List.of(1, 2, 3, 4, 5);

    @Option(names = "--servers", split = ",", paramLabel = "N,N,...", description = "server counts of Exp#3 (default 16,32,64,128)")
    List<Integer> serverCounts = List.of(16, 32, 64, 128);

    @Option(names = "--ops", description = "measured operations per rack run (default ${DEFAULT-VALUE})")
    long ops = 60_000;

    @Option(names = "--keys", description = "keys (default ${DEFAULT-VALUE}, the paper's 100M records)")
    long keys = 100_000_000;

    @Option(names = "--cache", description = "cache records, preloaded with the hottest keys (default ${DEFAULT-VALUE})")
    int cache = 10_000;

    @Option(names = "--detail", description = "also print what every rack run did (frames per op at servers and controller)")
    boolean detail;

    @Option(names = "--quick", description = "a fast run for CI: 8,000 operations, Exp#3 on 16 and 32 servers")
    boolean quick;

    @Mixin
    PlotOption plot = new PlotOption();

    public static void main(String[] args) {
        Cli.main("innet bench", new BenchMain(), args);
    }

    @Override
    public Integer call() throws Exception {
        if (!target.equals("farreach")) {
            throw Cli.usageError(spec, "unknown benchmark '" + target + "' (bench farreach; p4sim has its own)");
        }
        if (ops < 1 || keys < 1 || cache < 1 || serverCounts.stream().anyMatch(n -> n < 1)) {
            throw Cli.usageError(spec, "--servers, --ops, --keys and --cache must be positive");
        }
        // Load and D insert new keys after the last record: a warm-up and a window of inserts at most
        if (ops > Integer.MAX_VALUE || keys > Integer.MAX_VALUE - 2 * ops) {
            throw Cli.usageError(spec, "--keys plus twice --ops (room for the keys Load and D insert) must be at most 2^31-1");
        }
        if (experiments.stream().anyMatch(e -> e < 1 || e > 5)) {
            throw Cli.usageError(spec, "--exp takes experiment numbers 1 to 5");
        }
        plot.prepare(root(), "farreach");
        if (quick) {
            ops = 8_000;
            serverCounts = List.of(16, 32);
        }
        return run(System.out);
    }

    private static Path root() {
        return Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
    }

    int run(PrintStream out) throws Exception {
        Testbed t = Testbed.farReachPaper();
        Experiments ex = new Experiments(new RackRunner(root(), 42), t, cache, ops);
        out.printf("innet bench farreach: %,d keys, cache %,d (preloaded), %,d measured ops per rack run%n", keys, cache, ops);
        out.printf("cost model (docs/benchmarks.md): %d client machines, %d switch pipelines, RocksDB %.1f us per request,"
                + " %.0f Gbps NICs%n", t.clientMachines(), t.pipelines(), t.storageOpSeconds() * 1e6, t.linkBitsPerSecond() / 1e9);
        List<RatioTable> tables = new ArrayList<>();
        LatencyCurve latency = null;
        if (experiments.contains(5)) {
            Experiments.Cell u = ex.cell("uniform writes", YcsbWorkloads.uniformUpdates("uniform", keys), 16);
            out.printf("%nExp#5 check (uniform write-only, 16 servers): no-cache %.2f, NetCache %.2f, FarReach %.2f MOPS;"
                    + " paper ≈ %.1f MOPS for every scheme (§5.3)%n", u.get("nocache").mops(), u.get("netcache").mops(),
                    u.get("farreach").mops(), PaperFigures.EXP5_UNIFORM_MOPS);
            var run = u.get("nocache").run();
            out.printf("  innet's consistent-hash ring (64 virtual nodes per server): the busiest server received %.2fx the"
                    + " mean; a perfectly balanced rack would give %.2f MOPS%n", run.busiestServerFrames()
                    * (double) run.servers() / run.serverTraffic().stream().mapToLong(h -> h.framesReceived()).sum(),
                    u.get("nocache").mops() * run.busiestServerFrames() * run.servers()
                            / run.serverTraffic().stream().mapToLong(h -> h.framesReceived()).sum());
        }
        if (experiments.contains(1)) {
            RatioTable exp1 = new RatioTable("Exp#1 (Fig. 7): YCSB workloads, 16 servers", "YCSB workload");
            for (String w : YcsbWorkloads.EXP1) {
                exp1.add(ex.cell(w, YcsbWorkloads.ycsb(w, keys), 16), PaperFigures.EXP1_FR_OVER_NOCACHE.get(w),
                        PaperFigures.EXP1_FR_OVER_NETCACHE.get(w));
            }
            exp1.print(out);
            tables.add(exp1);
        }
        if (experiments.contains(1)) {
            // What-if: 16 closed-loop clients keep at most 16 operations outstanding; the paper's saturated
            // testbed kept many more, and a write-through cache is invalid while a write to the key is in
            // flight (docs/benchmarks.md, "Where the model and the paper differ").
            RatioTable slow = new RatioTable("What-if (YCSB A, 16 servers): more operations outstanding (closed-loop"
                    + " clients)", "closed-loop clients");
            for (int clients : List.of(64, 192)) {
                slow.add(ex.cell(clients + " clients", YcsbWorkloads.ycsb("A", keys), 16, ex.ops(), clients),
                        PaperFigures.EXP1_FR_OVER_NOCACHE.get("A"), PaperFigures.EXP1_FR_OVER_NETCACHE.get("A"));
            }
            slow.print(out);
            tables.add(slow);
        }
        if (experiments.contains(2)) {
            latency = LatencyCurve.measure(ex.cell("A", YcsbWorkloads.ycsb("A", keys), 16),
                    List.of(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.6, 2.0), 42);
            latency.print(out);
        }
        if (experiments.contains(3)) {
            RatioTable exp3 = new RatioTable("Exp#3 (Fig. 9): YCSB A, servers", "servers");
            for (int n : serverCounts) {
                var paper = PaperFigures.EXP3_FR_GAIN.getOrDefault(n, Stated.NONE);
                // The busiest of n servers is a maximum over n samples: keep the requests per server, and so
                // its sampling error, about the same as on 16-32 servers (docs/benchmarks.md, "Limits").
                long runOps = ops * Math.max(1, n / 32);
                exp3.add(ex.cell(Integer.toString(n), YcsbWorkloads.ycsb("A", keys), n, runOps), paper, paper);
            }
            exp3.print(out);
            tables.add(exp3);
        }
        if (experiments.contains(4)) {
            RatioTable exp4 = new RatioTable("Exp#4 (Fig. 10): synthetic zipf 0.99, write ratio, 16 servers", "write ratio");
            for (int pct : List.of(0, 25, 50, 75, 100)) {
                BenchWorkload w = YcsbWorkloads.synthetic(pct / 100.0, keys);
                exp4.add(ex.cell(pct + "%", w, 16), PaperFigures.exp4FrOverNoCache(pct), PaperFigures.exp4FrOverNetCache(pct));
            }
            exp4.print(out);
            tables.add(exp4);
        }
        if (detail) {
            out.println();
            out.println("rack runs (op codes: docs/wire-format.md):");
            ex.runs().forEach(m -> out.println("  " + m.run().describe()));
        }
        plot.write(FarReachFigures.page(tables, latency), out);
        return 0;
    }
}
