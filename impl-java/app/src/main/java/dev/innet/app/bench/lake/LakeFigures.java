package dev.innet.app.bench.lake;

import dev.innet.app.bench.Stated;
import dev.innet.app.bench.plot.BarChart;
import dev.innet.app.bench.plot.BarChart.Bar;
import dev.innet.app.bench.plot.PlotPage;
import dev.innet.lake.PaperLatency;
import java.util.List;

/**
 * {@code ./innet bench lake --plot}: what one run measured, as bars: p4sim's packets per CPU-second per
 * data-plane path; GETs per second on this machine (memcached alone, and through a live LaKe rack, when
 * those parts ran); the NetFPGA model's throughput per mix of layers with the paper's Table I beside it;
 * and the simulator's device latency per path beside the paper's per-layer latencies.
 */
final class LakeFigures {
    /** Table I, §IV-A: "13.1 Mqps ... when all the queries are hit in the shared-cache". */
    static final Stated ALL_HITS_MQPS = Stated.of(LakeModel.L1_QPS / 1e6,
            "Table I, §IV-A: 13.1 Mqps when every query hits the shared cache");
    /** §IV-A: LaKe's hits are "x13.6 improvement compared with memcached running on the host". */
    static final Stated MEMCACHED_MQPS = Stated.of(LakeModel.MEMCACHED_QPS / 1e6,
            "§IV-A: LaKe's 13.1 Mqps is 13.6x memcached on the host (13.1 / 13.6)");
    static final Stated FIRST_LAYER_US = Stated.of(PaperLatency.L1_HIT_NANOS / 1e3, "§IV-A: 1.16 µs on a hit");
    static final Stated SECOND_LAYER_US = Stated.of(PaperLatency.L2_HIT_NANOS / 1e3,
            "§IV-A: 5.6 µs on a shared-cache miss answered from the DRAM");

    private final BarChart p4sim = new BarChart("data-plane path (a frame of p4/tests/lake.stf)",
            "packets per CPU-second (thousands)", List.of("p4sim in process, one thread"));
    private final BarChart onThisMachine = new BarChart("configuration", "GETs per second (thousands)",
            List.of("throughput"));
    private int measuredOnThisMachine;
    private final BarChart model = new BarChart("mix of GETs", "saturation throughput (Mqps)", List.of("model"));
    private final BarChart timing = new BarChart("path", "device latency (µs)", List.of("simulator (timed - untimed)"));

    void p4sim(String path, double packetsPerCpuSecond) {
        p4sim.group(path, Bar.of(packetsPerCpuSecond / 1e3));
    }

    void measured(String configuration, McLoad.Result r) {
        onThisMachine.group(configuration, Bar.of(r.opsPerSecond() / 1e3));
        measuredOnThisMachine++;
    }

    /** A model row; {@code paper} is what the paper states for the same mix, or {@link Stated#NONE}. */
    void model(LakeModel.Figures f, Stated paper) {
        model.group(f.mix().name(), Bar.of(f.saturationQps() / 1e6).withPaper(paper));
    }

    void timing(String path, long timedNanos, long untimedNanos, Stated paper) {
        timing.group(path, Bar.of((timedNanos - untimedNanos) / 1e3).withPaper(paper));
    }

    PlotPage page() {
        PlotPage page = new PlotPage("innet bench lake: p4sim and memcached on this machine, and the NetFPGA model",
                "What one run measured; the paper's figures are its NetFPGA-SUME's. Method and constants: docs/benchmarks.md,"
                        + " \"LaKe\".");
        page.section("1. p4sim in process (p4/lake.p4)");
        page.figure(p4sim, "Packets per CPU-second of the benchmark thread, per path. The paper's pipeline runs at line"
                + " rate on an FPGA (13.1 Mqps on hits, Table I): no per-CPU-second figure to compare, so none is drawn.");
        if (measuredOnThisMachine > 0) {
            page.section("2-3. GETs on this machine");
            page.figure(onThisMachine, "Closed-loop GETs per second: memcached alone on loopback, and through a live LaKe"
                    + " rack when it ran (cached keys, then keys it never caches). This machine, not the paper's: the paper"
                    + " states no figure for it.");
        }
        page.section("4. Modelled: LaKe on NetFPGA-SUME");
        page.figure(model, "The model's saturation throughput per mix. Diamonds: the paper's Table I (13.1 Mqps on"
                + " first-layer hits) and memcached at 13.1 / 13.6 Mqps, on which the model is calibrated; the paper gives"
                + " the other mixes (its Fig. 10-11) only as curves, so no number is drawn for them.");
        page.section("5. The simulator's switch timing");
        page.figure(timing, "The latency the simulator charges each path (the same GET timed and untimed). Diamonds: the"
                + " paper's 1.16 µs (first layer) and 5.6 µs (DRAM), the constants the simulator charges; for a miss the"
                + " paper states no device latency (only that it costs about memcached's latency plus the DRAM lookup).");
        return page;
    }
}
