package dev.innet.app.bench.visibility;

import dev.innet.app.bench.BenchWorkload;
import dev.innet.app.bench.RackRunner;
import dev.innet.app.bench.RunObservation;
import dev.innet.app.bench.plot.PlotOption;
import dev.innet.cli.Cli;
import dev.innet.costmodel.ClosedLoopReport;
import dev.innet.costmodel.DiscreteEventSimulator;
import dev.innet.costmodel.LatencyReport;
import dev.innet.costmodel.QueueingNetwork;
import dev.innet.costmodel.Saturation;
import dev.innet.visibility.VisibilityProtocol;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./innet bench visibility}: the visibility layer against the ordered-write baseline. The real
 * implementation (p4/visibility.p4 on p4sim, the Java data and metadata nodes and clients) runs a
 * simulated rack per workload and system and yields each operation's message pattern
 * ({@link OperationMix}); the cost model prices that pattern on the paper's testbed
 * ({@link VisibilityTestbed}) and runs it closed-loop at the paper's numbers of outstanding operations.
 * docs/benchmarks.md, "Visibility layer".
 */
@Command(name = "innet bench visibility", mixinStandardHelpOptions = true, description = {
    "The in-switch visibility layer against the ordered-write baseline: median and p99 write latency and",
    "throughput on the paper's testbed, from the real implementation's message counts (docs/benchmarks.md)."})
public final class VisibilityBench implements Callable<Integer> {
    /** §V-B: "Switch-KV reduces the median latency of write operations by 43.3%-50.0%" (write-only). */
    static final double PAPER_P50_REDUCTION_LOW = 0.433;
    static final double PAPER_P50_REDUCTION_HIGH = 0.500;
    /** §V-B: p99 write latency 39.4% lower "when the throughput is low (i.e., the first two points of each line)". */
    static final double PAPER_P99_REDUCTION_LOW_LOAD = 0.394;
    /** Abstract, §I, §VI: "boosts the throughput by up to 126.9%". */
    static final double PAPER_THROUGHPUT_GAIN = 1.269;
    /** §V-B: with p99 below 60 us, +8.0% peak throughput (write-only). */
    static final double PAPER_SLO_SECONDS = 60e-6;
    static final double PAPER_SLO_GAIN = 0.080;

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "a short run: fewer rack operations and a shorter model run")
    boolean quick;

    @Option(names = "--ops", description = "measured operations per rack run (default 20000, --quick 3000)")
    Long ops;

    @Option(names = "--keys", description = "key space (default ${DEFAULT-VALUE}, the paper's)")
    long keys = VisibilityWorkloads.PAPER_KEYS;

    @Option(names = "--outstanding", split = ",", description = "outstanding operations of the model's closed loop "
            + "(default 6,24,96,192,384,768: the paper's sweep, 384 its default)")
    List<Integer> outstanding = new ArrayList<>(List.of(6, 24, 96, 192, 384, 768));

    @Option(names = "--rack-clients", description = "closed-loop clients of each rack run: how many operations the "
            + "switch sees overlap, which sets the fallback and switch-read shares (default ${DEFAULT-VALUE})")
    int rackClients = RackRunner.CLIENTS;

    @Option(names = "--control-message-us", description = "price of a control message (clear, clear ack, held reply) at"
            + " the metadata node, in us (default: a tenth of a metadata request on each testbed, an assumption)")
    Double controlMessageMicros;

    @Option(names = "--detail", description = "also print each rack run's frames per op")
    boolean detail;

    @Option(names = "--root", hidden = true)
    Path root = Path.of(System.getProperty("innet.root", "."));

    @Mixin
    PlotOption plot = new PlotOption();

    static final long SEED = 42;

    public static void main(String[] args) {
        System.exit(Cli.run("innet bench visibility", new VisibilityBench(), args, System.out, System.err));
    }

    /**
     * One row of a comparison: the two systems at one number of outstanding operations. The read latencies are
     * null on a write-only workload.
     */
    record Row(int outstanding, LatencyReport visibilityWrites, LatencyReport baselineWrites, double visibilityOps,
            double baselineOps, LatencyReport visibilityReads, LatencyReport baselineReads) {
        double p50Reduction() {
            return 1 - visibilityWrites.p50() / baselineWrites.p50();
        }

        double throughputGain() {
            return visibilityOps / baselineOps - 1;
        }

        double p99Reduction() {
            return 1 - visibilityWrites.p99() / baselineWrites.p99();
        }
    }

    /** What one workload gave. */
    record Result(String workload, OperationMix visibility, OperationMix baseline, List<Row> rows,
            Saturation visibilityPeak, Saturation baselinePeak) {
        /** The most throughput a system reached over the sweep with write p99 within the paper's 60 us; 0 if none. */
        double underSlo(boolean visibilityLayer) {
            return rows.stream().filter(r -> (visibilityLayer ? r.visibilityWrites() : r.baselineWrites()).p99()
                    <= PAPER_SLO_SECONDS).mapToDouble(visibilityLayer ? Row::visibilityOps : Row::baselineOps).max().orElse(0);
        }
    }

    @Override
    public Integer call() throws Exception {
        long measured = ops != null ? ops : quick ? 3_000 : 20_000;
        if (measured < 100 || keys < 1_000 || outstanding.isEmpty() || outstanding.stream().anyMatch(n -> n < 1)
                || rackClients < 1 || rackClients > 1024 || (controlMessageMicros != null && !(controlMessageMicros >= 0))) {
            throw Cli.usageError(spec, "--ops at least 100, --keys at least 1000, --outstanding positive numbers,"
                    + " --rack-clients 1-1024, --control-message-us at least 0");
        }
        if (!Files.isRegularFile(root.resolve("p4/visibility.p4"))) {
            throw Cli.usageError(spec, "no p4/visibility.p4 under " + root.toAbsolutePath() + " (--root)");
        }
        plot.prepare(root.toAbsolutePath().normalize(), "visibility");
        PrintStream out = System.out;
        Path dir = Files.createTempDirectory("innet-bench-visibility");
        try {
            return run(OrderedWriteBaseline.write(root, dir), measured, out);
        } finally {
            Files.deleteIfExists(dir.resolve(OrderedWriteBaseline.FILE_NAME));
            Files.deleteIfExists(dir);
        }
    }

    private int run(Path baselineProgram, long measured, PrintStream out) throws IOException {
        List<VisibilityTestbed> testbeds = new ArrayList<>(List.of(VisibilityTestbed.paper(),
                VisibilityTestbed.paper().unsaturatedAt(768)));
        if (controlMessageMicros != null) {
            testbeds.replaceAll(t -> t.withControlMessageSeconds(controlMessageMicros * 1e-6));
        }
        for (VisibilityTestbed t : testbeds) {
            out.printf("Testbed %s: host-switch leg %.2f us; data node %.2f us queued + %.2f us not; metadata node"
                    + " %.2f us queued + %.2f us not (deferred update %.2f us, control message %.3f us); %d data + %d"
                    + " metadata nodes x %d threads%n", t.name(), t.legSeconds() * 1e6, t.dataServiceSeconds() * 1e6,
                    t.dataDelaySeconds() * 1e6, t.metadataServiceSeconds() * 1e6, t.metadataDelaySeconds() * 1e6,
                    t.deferredUpdateSeconds() * 1e6, t.controlMessageSeconds() * 1e6, t.dataNodes(), t.metadataNodes(),
                    t.threadsPerNode());
        }
        out.printf("Workload: %,d keys, zipf %.2f: the hottest 1/10000 of the keys get %.1f%% of operations (paper: 49.1%%)%n",
                keys, VisibilityWorkloads.ZIPF, 100 * VisibilityWorkloads.shareOfHottest(keys / 10_000, keys));
        int modelOps = quick ? 20_000 : 200_000;
        List<Result> writeOnly = new ArrayList<>();
        List<Result> all = new ArrayList<>();
        for (double writes : new double[] {1.0, 0.5}) {
            BenchWorkload w = VisibilityWorkloads.of(writes == 1.0 ? "write-only" : "write-heavy (50% writes)", writes, keys);
            RackRunner runner = new RackRunner(root, SEED);
            RunObservation vis = runner.run(new VisibilityProtocol(), w, RACK_SERVERS, 0, measured, rackClients);
            RunObservation base = runner.withProgramSource(baselineProgram).run(new VisibilityProtocol(), w, RACK_SERVERS, 0,
                    measured, rackClients);
            OperationMix visMix = OperationMix.of(vis);
            OperationMix baseMix = OperationMix.of(base);
            out.printf("%n== %s, %d rack clients ==%n  visibility layer: %s%n  ordered writes:   %s%n", w.name(), rackClients,
                    visMix.describe(), baseMix.describe());
            if (detail) {
                out.println("  " + vis.describe());
                out.println("  " + base.describe());
            }
            for (VisibilityTestbed t : testbeds) {
                Result r = compare(w.name(), visMix, baseMix, t, outstanding, modelOps, out);
                all.add(r);
                if (writes == 1.0) {
                    writeOnly.add(r);
                }
            }
        }
        for (Result r : writeOnly) {
            summary(r, out);
        }
        plot.write(VisibilityFigures.page(all), out);
        return 0;
    }

    /** The metadata node and 5 data nodes: the paper's data node count (§V-A 1); innet has one metadata node. */
    static final int RACK_SERVERS = 6;

    /** The model's closed loop for both systems at each number of outstanding operations, printed as a table. */
    static Result compare(String workload, OperationMix visMix, OperationMix baseMix, VisibilityTestbed t,
            List<Integer> outstanding, int modelOps, PrintStream out) {
        QueueingNetwork visNet = VisibilityCostModel.network(visMix, t);
        QueueingNetwork baseNet = VisibilityCostModel.network(baseMix, t);
        List<Row> rows = new ArrayList<>();
        out.printf("%nTestbed %s:%n", t.name());
        boolean reads = visMix.writeShare() < 1;
        out.println("| outstanding | write p50 us: visibility / ordered | reduction | write p99 us: visibility / ordered |"
                + " MOPS: visibility / ordered | gain |" + (reads ? " read p50 us: visibility / ordered |" : ""));
        out.println("|---|---|---|---|---|---|" + (reads ? "---|" : ""));
        for (int n : outstanding) {
            ClosedLoopReport v = new DiscreteEventSimulator(visNet).runClosed(n, modelOps / 5, modelOps, SEED);
            ClosedLoopReport b = new DiscreteEventSimulator(baseNet).runClosed(n, modelOps / 5, modelOps, SEED);
            Row r = new Row(n, v.latencyOf(VisibilityCostModel::isWrite), b.latencyOf(VisibilityCostModel::isWrite),
                    v.achievedOpsPerSecond(), b.achievedOpsPerSecond(),
                    reads ? v.latencyOf(name -> !VisibilityCostModel.isWrite(name)) : null,
                    reads ? b.latencyOf(name -> !VisibilityCostModel.isWrite(name)) : null);
            rows.add(r);
            // §V-B (Fig. 7) finds reads neither faster nor slower; the read column shows whether the model agrees
            String readColumn = !reads ? "" : String.format(" %.1f / %.1f |", r.visibilityReads().p50() * 1e6,
                    r.baselineReads().p50() * 1e6);
            out.printf("| %d | %.1f / %.1f | %.1f%% | %.1f / %.1f | %.2f / %.2f | %+.1f%% |%s%n", n,
                    r.visibilityWrites().p50() * 1e6, r.baselineWrites().p50() * 1e6, 100 * r.p50Reduction(),
                    r.visibilityWrites().p99() * 1e6, r.baselineWrites().p99() * 1e6, r.visibilityOps() / 1e6,
                    r.baselineOps() / 1e6, 100 * r.throughputGain(), readColumn);
        }
        Saturation vp = Saturation.of(visNet);
        Saturation bp = Saturation.of(baseNet);
        out.printf("Peak (utilisation law): visibility %.2f MOPS (%s), ordered %.2f MOPS (%s): %+.1f%%%n",
                vp.opsPerSecond() / 1e6, vp.bottleneck(), bp.opsPerSecond() / 1e6, bp.bottleneck(),
                100 * (vp.opsPerSecond() / bp.opsPerSecond() - 1));
        return new Result(workload + ", testbed " + t.name(), visMix, baseMix, rows, vp, bp);
    }

    /** The write-only figures next to the paper's. */
    static void summary(Result r, PrintStream out) {
        double minRed = r.rows().stream().mapToDouble(Row::p50Reduction).min().orElseThrow();
        double maxRed = r.rows().stream().mapToDouble(Row::p50Reduction).max().orElseThrow();
        double maxGain = r.rows().stream().mapToDouble(Row::throughputGain).max().orElseThrow();
        double sloVis = r.underSlo(true);
        double sloBase = r.underSlo(false);
        out.printf("%nAgainst the paper (%s; paper: write-only, Fig. 6):%n", r.workload());
        out.printf("  median write latency reduction: model %.1f%%-%.1f%%, paper %.1f%%-%.1f%% (model/paper at the ends"
                + " %.2f, %.2f)%n", 100 * minRed, 100 * maxRed, 100 * PAPER_P50_REDUCTION_LOW, 100 * PAPER_P50_REDUCTION_HIGH,
                minRed / PAPER_P50_REDUCTION_LOW, maxRed / PAPER_P50_REDUCTION_HIGH);
        out.printf("  largest throughput gain at equal outstanding operations: model %+.1f%%, paper up to %+.1f%%"
                + " (model/paper %.2f)%n", 100 * maxGain, 100 * PAPER_THROUGHPUT_GAIN, (1 + maxGain) / (1 + PAPER_THROUGHPUT_GAIN));
        out.printf("  peak throughput: model %+.1f%%, paper \"similar\" without deferred processing%n",
                100 * (r.visibilityPeak().opsPerSecond() / r.baselinePeak().opsPerSecond() - 1));
        if (sloVis > 0 && sloBase > 0) {
            out.printf("  throughput with write p99 <= 60 us (over the sweep's points): model %+.1f%%, paper %+.1f%%%n",
                    100 * (sloVis / sloBase - 1), 100 * PAPER_SLO_GAIN);
        } else {
            out.printf("  throughput with write p99 <= 60 us: no point of the sweep meets it for %s%n",
                    sloVis == 0 ? "the visibility layer" : "the baseline");
        }
    }
}
