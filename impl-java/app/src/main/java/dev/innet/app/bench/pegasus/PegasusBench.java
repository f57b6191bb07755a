package dev.innet.app.bench.pegasus;

import dev.innet.app.bench.BenchWorkload;
import dev.innet.app.bench.RackRunner;
import dev.innet.app.bench.Testbed;
import dev.innet.app.bench.pegasus.PegasusExperiments.Measured;
import dev.innet.app.bench.plot.PlotOption;
import dev.innet.cli.Cli;
import dev.innet.costmodel.DiscreteEventSimulator;
import dev.innet.kv.ConsistentHashRing;
import dev.innet.pegasus.chain.ChainNetwork;
import dev.innet.pegasus.chain.ChainPlacement;
import dev.innet.pegasus.chain.ChainView;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.sim.Hashing;
import dev.innet.rack.workload.WorkloadClient;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./innet bench pegasus} (issue 16, item 5; docs/benchmarks.md, "Pegasus"): the Pegasus paper's §9
 * experiments for consistent hashing, NetCache and Pegasus, on simulated racks (p4/pegasus.p4,
 * p4/netcache.p4 and p4/nocache.p4 on p4sim with the real servers, controllers and clients) priced by the
 * cost model of the paper's testbed ({@link Testbed#pegasusPaper()}): throughput against skew, against
 * the write ratio, against the number of servers, against the number of replicated keys, and the two-rack
 * chain (§7, run on two simulated racks, and after one of them fails).
 */
@Command(name = "innet bench pegasus", mixinStandardHelpOptions = true, description = {
    "Pegasus vs consistent hashing vs NetCache: the Pegasus paper's §9 (skew, write ratio, servers, replicated",
    "keys, two racks) on simulated racks priced by a queueing model of its testbed, throughput under its",
    "p99 SLO of 50 us, with the paper's figures alongside (docs/benchmarks.md, \"Pegasus\")."})
public final class PegasusBench implements Callable<Integer> {
    /** §9.1: "At α = 1.2, Pegasus achieves a 10x throughput improvement over consistent hashing". */
    static final double PAPER_PEGASUS_OVER_CH = 10.0;
    /** §9.1: consistent hashing's throughput "drops to as low as 10%" of its uniform figure. */
    static final double PAPER_CH_SKEWED_SHARE = 0.10;
    /** §9.2: "Even when only 10% of requests are writes, [NetCache's] throughput drops by more than 80%". */
    static final double PAPER_NETCACHE_DROP_AT_10 = 0.80;
    /** §9.2: Pegasus achieves "as much as 11.8x the throughput as NetCache". */
    static final double PAPER_PEGASUS_OVER_NETCACHE_MAX = 11.8;
    /** §9.8: "the two-rack configuration has 1.7x the throughput". */
    static final double PAPER_TWO_RACKS = 1.7;

    @Spec
    CommandSpec spec;

    @Option(names = "--exp", split = ",", paramLabel = "NAME,...",
            description = "experiments: skew, writes, servers, keys, racks (default all)")
    List<String> experiments = List.of("skew", "writes", "servers", "keys", "racks");

    @Option(names = "--ops", description = "measured operations per rack run (default ${DEFAULT-VALUE})")
    long ops = 20_000;

    @Option(names = "--warmup", description = "operations a Pegasus rack runs before measuring, while its directory"
            + " fills (default ${DEFAULT-VALUE})")
    long warmup = 48_000;

    @Option(names = "--keys", description = "keys (default ${DEFAULT-VALUE}, the paper's one million)")
    int keys = PegasusWorkloads.PAPER_KEYS;

    @Option(names = "--quick", description = "a short run: 8,000 measured operations, fewer points per experiment")
    boolean quick;

    @Option(names = "--detail", description = "also print what every rack run did")
    boolean detail;

    @Mixin
    PlotOption plot = new PlotOption();

    public static void main(String[] args) {
        Cli.main("innet bench pegasus", new PegasusBench(), args);
    }

    @Override
    public Integer call() throws IOException {
        if (ops < 1 || warmup < 1 || keys < 1) {
            throw Cli.usageError(spec, "--ops, --warmup and --keys must be positive");
        }
        for (String e : experiments) {
            if (!List.of("skew", "writes", "servers", "keys", "racks").contains(e)) {
                throw Cli.usageError(spec, "unknown experiment '" + e + "' (skew, writes, servers, keys, racks)");
            }
        }
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        plot.prepare(root, "pegasus");
        if (quick) {
            ops = 8_000;
        }
        run(System.out, new PegasusExperiments(new RackRunner(root, 42), Testbed.pegasusPaper(), ops, warmup,
                quick ? 10_000 : 30_000, 42));
        return 0;
    }

    /** The chosen experiments on {@code ex}'s racks and testbed; with {@code --plot}, their figures too. */
    void run(PrintStream out, PegasusExperiments ex) throws IOException {
        Testbed t = ex.testbed();
        PegasusFigures figures = new PegasusFigures();
        out.printf("innet bench pegasus: %,d keys, 128-byte values, %,d measured ops per rack run (Pegasus after %,d warm-up"
                + " ops), 16 closed-loop clients%n", keys, ops, warmup);
        out.printf("cost model (docs/benchmarks.md, \"Pegasus\"): %d client machines, server %.1f us per request"
                + " (exponential), %.0f Gbps NICs; throughput = the highest Poisson load whose p99 <= %.0f us%n",
                t.clientMachines(), t.storageOpSeconds() * 1e6, t.linkBitsPerSecond() / 1e9,
                PegasusExperiments.SLO_P99_SECONDS * 1e6);
        List<Double> alphas = quick ? List.of(0.0, 0.9, 1.2) : List.of(0.0, 0.9, 1.0, 1.1, 1.2);
        if (experiments.contains("skew")) {
            skew(out, ex, alphas, figures);
        }
        if (experiments.contains("writes")) {
            writes(out, ex, quick ? List.of(0, 10, 50) : List.of(0, 10, 25, 50, 100), figures);
        }
        if (experiments.contains("servers")) {
            servers(out, ex, quick ? List.of(2, 8) : List.of(1, 2, 4, 8, 16), figures);
        }
        if (experiments.contains("keys")) {
            replicatedKeys(out, ex, quick ? List.of(1, 8, 64) : List.of(1, 2, 4, 8, 16, 32, 64), figures);
        }
        if (experiments.contains("racks")) {
            racks(out, ex, figures);
        }
        if (detail) {
            out.println();
            out.println("rack runs (op codes: docs/wire-format.md, docs/pegasus.md):");
            ex.runs().forEach(m -> out.println("  " + m.run().describe()));
        }
        plot.write(figures.page(), out);
    }

    private BenchWorkload readOnly(double alpha) {
        return PegasusWorkloads.zipf(alpha, 0, keys);
    }

    private void skew(PrintStream out, PegasusExperiments ex, List<Double> alphas, PegasusFigures figures) {
        out.println();
        out.println("Skew (§9.1, Fig. 7): read-only, 16 servers; MOPS under the p99 SLO (saturation in brackets)");
        out.println("| zipf α | consistent hashing | NetCache | Pegasus | Pegasus / CH | paper | model/paper | CH / CH uniform"
                + " | paper | busiest server's share CH / Pegasus |");
        out.println("|---|---|---|---|---|---|---|---|---|---|");
        Measured uniform = ex.measure("nocache", readOnly(0), 16);
        List<Measured[]> rows = new ArrayList<>();
        for (double a : alphas) {
            Measured ch = ex.measure("nocache", readOnly(a), 16);
            Measured nc = ex.measure("netcache", readOnly(a), 16);
            Measured pg = ex.measure("pegasus", readOnly(a), 16);
            rows.add(new Measured[] {ch, nc, pg});
            double gain = pg.sloMops() / ch.sloMops();
            boolean top = a == 1.2;
            out.printf("| %s | %s | %s | %s | %.2f | %s | %s | %.2f | %s | %.3f / %.3f |%n", a == 0 ? "uniform" : a,
                    cellOf(ch), cellOf(nc), cellOf(pg), gain, top ? "10" : "-",
                    top ? String.format("%.2f", gain / PAPER_PEGASUS_OVER_CH) : "-", ch.sloMops() / uniform.sloMops(),
                    top ? "0.10" : "-", busiestShare(ch), busiestShare(pg));
        }
        figures.skew(alphas, rows, uniform);
        double top = alphas.get(alphas.size() - 1);
        double hottest = new ZipfKeys(keys, top).probability(0);
        out.printf("at zipf %.1f the hottest key alone is %.1f%% of requests (exact, over %,d keys): consistent hashing's"
                + " busiest server carries at least that, so it reaches at most %.2f of a balanced 16-server rack;"
                + " the paper's 10x over a balanced rack needs a busiest server at %.1f%% of requests%n", top, hottest * 100, keys,
                1 / (16 * hottest), 100 * PAPER_PEGASUS_OVER_CH / 16);
        coresWhatIf(out, top, PegasusBench.busiestShare(ex.measure("nocache", readOnly(top), 16)));
        Measured pg = ex.measure("pegasus", readOnly(top), 16);
        double unloaded = new DiscreteEventSimulator(pg.modelled().network())
                .run(pg.modelled().saturation().opsPerSecond() * 0.01, 500, 5_000, 42).p50();
        out.printf("Pegasus's unloaded median latency in the model: %.1f us (the paper's SLO is 5x its median: 10 us)%n",
                unloaded * 1e6);
    }

    /**
     * What-if, not from the paper's text: servers with c cores that each own a hash partition of the server's
     * keys (a common layout for DPDK key-value stores). Consistent hashing is then bound by its busiest
     * partition, not its busiest server. Computed exactly from the key distribution and the racks' own ring
     * (hosts 1..16, 64 virtual nodes); the c = 1 row must agree with the measured run's busiest server.
     */
    private void coresWhatIf(PrintStream out, double alpha, double measuredBusiest) {
        ZipfKeys z = new ZipfKeys(keys, alpha);
        ConsistentHashRing ring = new ConsistentHashRing(IntStream.rangeClosed(1, 16).boxed().toList());
        int[] cores = {1, 2, 4, 8};
        double[][] share = new double[cores.length][];
        for (int j = 0; j < cores.length; j++) {
            share[j] = new double[17 * cores[j]];
        }
        for (int i = 0; i < keys; i++) {
            byte[] key = WorkloadClient.keyOf(i);
            int server = ring.ownerOf(key);
            long h = Hashing.fnv1a64(key); // the ring places splitMix64 of this: independent of it modulo c
            for (int j = 0; j < cores.length; j++) {
                share[j][server * cores[j] + (int) Math.floorMod(h, (long) cores[j])] += z.probability(i);
            }
        }
        out.printf("what-if (not in the paper's text), zipf %.1f: servers of c cores, each core owning a hash partition of"
                + " its server's keys; consistent hashing is bound by its busiest partition%n", alpha);
        out.println("| cores per server | busiest partition's share | CH / balanced rack | balanced / CH |");
        out.println("|---|---|---|---|");
        for (int j = 0; j < cores.length; j++) {
            double busiest = java.util.Arrays.stream(share[j]).max().orElseThrow();
            double fraction = 1 / (16.0 * cores[j] * busiest);
            out.printf("| %d | %.3f | %.3f | %.1f |%n", cores[j], busiest, fraction, 1 / fraction);
        }
        out.printf("(c = 1 is the simulated rack: its measured busiest server received %.3f of the requests)%n",
                measuredBusiest);
    }

    private void writes(PrintStream out, PegasusExperiments ex, List<Integer> percents, PegasusFigures figures) {
        out.println();
        out.println("Write ratio (§9.2, Fig. 8): zipf 1.2, 16 servers; MOPS under the p99 SLO (saturation in brackets)");
        out.println("| writes | consistent hashing | NetCache | Pegasus | NetCache / its read-only | Pegasus / NetCache"
                + " | Pegasus replicated-write copies per write |");
        out.println("|---|---|---|---|---|---|---|");
        Measured ncRead = ex.measure("netcache", PegasusWorkloads.zipf(1.2, 0, keys), 16);
        List<Measured[]> rows = new ArrayList<>();
        for (int pct : percents) {
            BenchWorkload w = PegasusWorkloads.zipf(1.2, pct / 100.0, keys);
            Measured ch = ex.measure("nocache", w, 16);
            Measured nc = ex.measure("netcache", w, 16);
            Measured pg = ex.measure("pegasus", w, 16);
            rows.add(new Measured[] {ch, nc, pg});
            long writes = pg.run().writes();
            long copies = pg.run().serverTraffic().stream().mapToLong(h -> h.received(PegasusOp.REPLICATE)).sum();
            out.printf("| %d%% | %s | %s | %s | %.2f | %.2f | %s |%n", pct, cellOf(ch), cellOf(nc), cellOf(pg),
                    nc.sloMops() / ncRead.sloMops(), pg.sloMops() / nc.sloMops(),
                    writes == 0 ? "-" : String.format("%.2f", copies / (double) writes));
        }
        out.printf("paper: NetCache at 10%% writes keeps less than %.2f of its read-only throughput; Pegasus up to %.1fx"
                + " NetCache%n", 1 - PAPER_NETCACHE_DROP_AT_10, PAPER_PEGASUS_OVER_NETCACHE_MAX);
        figures.writes(percents, rows, ncRead);
    }

    private void servers(PrintStream out, PegasusExperiments ex, List<Integer> counts, PegasusFigures figures) {
        out.println();
        out.println("Servers (§9.3, Fig. 9): zipf 1.2, read-only; MOPS under the p99 SLO (saturation in brackets)");
        out.println("| servers | consistent hashing | Pegasus | Pegasus per server | Pegasus / CH |");
        out.println("|---|---|---|---|---|");
        List<Measured[]> rows = new ArrayList<>();
        for (int n : counts) {
            Measured ch = ex.measure("nocache", readOnly(1.2), n);
            Measured pg = ex.measure("pegasus", readOnly(1.2), n);
            rows.add(new Measured[] {ch, pg});
            out.printf("| %d | %s | %s | %.3f | %.2f |%n", n, cellOf(ch), cellOf(pg), pg.sloMops() / n,
                    pg.sloMops() / ch.sloMops());
        }
        out.println("paper: Pegasus scales nearly linearly to 16 servers; consistent hashing stops scaling after two");
        figures.servers(counts, rows);
    }

    private void replicatedKeys(PrintStream out, PegasusExperiments ex, List<Integer> slots, PegasusFigures figures) {
        out.println();
        out.println("Replicated keys (§9.5, Fig. 11): zipf 1.2, read-only, 16 servers; Pegasus with a directory of k slots");
        out.println("| directory slots | Pegasus MOPS (SLO) | share of the largest directory's | busiest server's share |");
        out.println("|---|---|---|---|");
        int largest = slots.stream().mapToInt(Integer::intValue).max().orElseThrow();
        double best = ex.measure("pegasus", readOnly(1.2), 16, largest).sloMops();
        List<Measured> rows = new ArrayList<>();
        for (int k : slots) {
            Measured pg = ex.measure("pegasus", readOnly(1.2), 16, k);
            rows.add(pg);
            out.printf("| %d | %.2f | %.2f | %.3f |%n", k, pg.sloMops(), pg.sloMops() / best, busiestShare(pg));
        }
        out.println("paper: 8-16 replicated keys give most of Pegasus's benefit (16 servers, zipf workloads)");
        out.println("(a directory of k slots replicates at most k keys; which ones is the controller's choice from the"
                + " switch's hot-key reports)");
        figures.replicatedKeys(slots, rows);
    }

    /**
     * §9.8 run: two racks of 16 servers, each the head of about half of the keys' chains and the tail of
     * the others, against one rack of 16; then the pair with one rack failed (its switch dies as the run
     * starts, the configuration service removes it in the warm-up). Read-only zipf 1.2, as Fig. 14. The
     * expectation from the key split alone (each rack at the measured one-rack capacity, the pair bounded by
     * the rack with the larger share of reads) is printed beside it.
     */
    private void racks(PrintStream out, PegasusExperiments ex, PegasusFigures figures) {
        out.println();
        out.println("Two racks (§9.8, Fig. 14): zipf 1.2, read-only, 16 servers per rack; MOPS under the p99 SLO"
                + " (saturation in brackets)");
        BenchWorkload w = readOnly(1.2);
        Measured one = ex.measure("pegasus", w, 16);
        Measured two = ex.measureChain(w, 16, 0);
        Measured failed = ex.measureChain(w, 16, 1);
        ChainPlacement placement = new ChainPlacement(new ChainNetwork(2).rackServers(rackHosts(32)));
        ZipfKeys z = new ZipfKeys(keys, 1.2);
        double[] share = new double[2];
        for (int i = 0; i < keys; i++) {
            share[placement.tailOf(WorkloadClient.keyOf(i), ChainView.initial(2)) - 1] += z.probability(i);
        }
        double expected = 1 / Math.max(share[0], share[1]);
        out.println("| configuration | MOPS (SLO) | over one rack | paper |");
        out.println("|---|---|---|---|");
        out.printf("| one rack | %s | 1.00 | 1 |%n", cellOf(one));
        out.printf("| two racks (chain replication, §7) | %s | %.2f | %.1f |%n", cellOf(two), two.sloMops() / one.sloMops(),
                PAPER_TWO_RACKS);
        out.printf("| two racks, rack 1 failed and removed | %s | %.2f | \"half of its speed\" |%n", cellOf(failed),
                failed.sloMops() / one.sloMops());
        out.printf("reads split %.3f / %.3f between the tails (exact over the key distribution): the split alone"
                + " predicts %.2f over one rack%n", share[0], share[1], expected);
        figures.racks(one, two, failed);
    }

    /** The server hosts of a bench rack of {@code n} servers: 1.., skipping 64 (RackPorts). */
    private static List<Integer> rackHosts(int n) {
        List<Integer> hosts = new java.util.ArrayList<>();
        for (int h = 1; hosts.size() < n; h++) {
            if (h != dev.innet.protocol.RackPorts.CPU_PORT) {
                hosts.add(h);
            }
        }
        return hosts;
    }

    private static String cellOf(Measured m) {
        return String.format("%.2f (%.2f)", m.sloMops(), m.saturationMops());
    }

    /**
     * The share of client requests the busiest server received. Pegasus's READ, WRITE and DELETE have the
     * op codes of the other schemes' GET, PUT and DEL (docs/wire-format.md), so one count serves all three.
     */
    static double busiestShare(Measured m) {
        long total = 0;
        long max = 0;
        for (var h : m.run().serverTraffic()) {
            long n = h.received(PegasusOp.READ) + h.received(PegasusOp.WRITE) + h.received(PegasusOp.DELETE);
            total += n;
            max = Math.max(max, n);
        }
        return total == 0 ? 0 : max / (double) total;
    }
}
