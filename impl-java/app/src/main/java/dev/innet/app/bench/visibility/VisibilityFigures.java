package dev.innet.app.bench.visibility;

import dev.innet.app.bench.Stated;
import dev.innet.app.bench.plot.LineChart;
import dev.innet.app.bench.plot.LineChart.Point;
import dev.innet.app.bench.plot.PlotPage;
import dev.innet.app.bench.visibility.VisibilityBench.Result;
import dev.innet.app.bench.visibility.VisibilityBench.Row;
import dev.innet.costmodel.LatencyReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * {@code ./innet bench visibility --plot}: per workload and testbed, latency against throughput as the
 * outstanding operations grow, the style of the paper's Fig. 6 (write-only: write p50 and p99) and Fig. 7
 * (50% writes: write and read p50); for write-only, the visibility layer's reductions and gain against the
 * outstanding operations, with the ratios §V-B states drawn beside them.
 */
final class VisibilityFigures {
    private static final Stated P99_AT_LOW_LOAD = Stated.of(100 * VisibilityBench.PAPER_P99_REDUCTION_LOW_LOAD,
            "§V-B: 39.4% lower p99 \"when the throughput is low (i.e., the first two points of each line)\"");
    private static final Stated READ_P50_US = new Stated(10.1, 12.3,
            "§V-B (Fig. 7): \"total P50 read latency is 10.1-12.3 us\", with the switch as without it");
    private static final Stated P50_REDUCTION = new Stated(100 * VisibilityBench.PAPER_P50_REDUCTION_LOW,
            100 * VisibilityBench.PAPER_P50_REDUCTION_HIGH, "§V-B: median write latency 43.3%-50.0% lower, write-only");
    private static final Stated THROUGHPUT_GAIN = Stated.of(100 * VisibilityBench.PAPER_THROUGHPUT_GAIN,
            "abstract, §I, §VI: \"boosts the throughput by up to 126.9%\"");

    private VisibilityFigures() {}

    static PlotPage page(List<Result> results) {
        PlotPage page = new PlotPage("innet bench visibility: cost model vs the visibility-layer paper",
                "The real implementation's message pattern per operation, priced closed-loop on the paper's testbed at each"
                        + " number of outstanding operations. Method and constants: docs/benchmarks.md, \"Visibility layer\".");
        for (Result r : results) {
            page.section(r.workload());
            if (r.visibility().writeShare() < 1) {
                page.figure(latencyAgainstThroughput(r, true), "Like the paper's Fig. 7 (50% writes): median latency against"
                        + " throughput, a point per number of outstanding operations. The paper: the switch does not change"
                        + " reads, whose p50 stays within 10.1-12.3 µs for both systems (the dashed lines); it states no"
                        + " write latencies for this workload.");
            } else {
                page.figure(latencyAgainstThroughput(r, false), "Like the paper's Fig. 6 (write-only): write p50 and p99"
                        + " against throughput, a point per number of outstanding operations. The paper's text gives its"
                        + " ratios (next figure), not its curves' values.");
                page.figure(againstOrderedWrites(r), String.format(Locale.ROOT, "The visibility layer against ordered writes"
                        + " per number of outstanding operations. The paper (§V-B): median write latency %.1f%%-%.1f%% lower"
                        + " over its sweep (the two dashed lines), p99 %.1f%% lower at its first two points (diamonds),"
                        + " throughput \"up to\" %+.1f%% at a point it does not name (dashed); with write p99 ≤ 60 µs"
                        + " %+.1f%% (model: %s).", 100 * VisibilityBench.PAPER_P50_REDUCTION_LOW,
                        100 * VisibilityBench.PAPER_P50_REDUCTION_HIGH, 100 * VisibilityBench.PAPER_P99_REDUCTION_LOW_LOAD,
                        100 * VisibilityBench.PAPER_THROUGHPUT_GAIN, 100 * VisibilityBench.PAPER_SLO_GAIN, sloGain(r)));
            }
        }
        return page;
    }

    private static LineChart latencyAgainstThroughput(Result r, boolean reads) {
        LineChart chart = new LineChart("throughput (MOPS)", false, "latency (µs)")
                .line("visibility layer, write p50", points(r, Row::visibilityOps, Row::visibilityWrites, LatencyReport::p50))
                .line("ordered writes, write p50", points(r, Row::baselineOps, Row::baselineWrites, LatencyReport::p50));
        if (reads) {
            return chart.line("visibility layer, read p50", points(r, Row::visibilityOps, Row::visibilityReads, LatencyReport::p50))
                    .line("ordered writes, read p50", points(r, Row::baselineOps, Row::baselineReads, LatencyReport::p50))
                    .reference(String.format(Locale.ROOT, "paper: read p50 %.1f-%.1f µs", READ_P50_US.low(), READ_P50_US.high()),
                            READ_P50_US);
        }
        return chart.line("visibility layer, write p99", points(r, Row::visibilityOps, Row::visibilityWrites, LatencyReport::p99))
                .line("ordered writes, write p99", points(r, Row::baselineOps, Row::baselineWrites, LatencyReport::p99));
    }

    /** One system's curve: its throughput and one latency percentile at each number of outstanding operations. */
    private static List<Point> points(Result r, ToDoubleFunction<Row> ops, Function<Row, LatencyReport> latency,
            ToDoubleFunction<LatencyReport> percentile) {
        List<Point> points = new ArrayList<>();
        for (Row row : r.rows()) {
            points.add(new Point(ops.applyAsDouble(row) / 1e6, percentile.applyAsDouble(latency.apply(row)) * 1e6,
                    row.outstanding() + " outstanding"));
        }
        return points;
    }

    private static LineChart againstOrderedWrites(Result r) {
        List<Point> p50 = new ArrayList<>();
        List<Point> p99 = new ArrayList<>();
        List<Point> gain = new ArrayList<>();
        for (Row row : r.rows()) {
            p50.add(Point.at(row.outstanding(), 100 * row.p50Reduction()));
            p99.add(Point.at(row.outstanding(), 100 * row.p99Reduction()));
            gain.add(Point.at(row.outstanding(), 100 * row.throughputGain()));
        }
        LineChart chart = new LineChart("outstanding operations", true, "visibility layer against ordered writes (%)")
                .line("write p50 reduction", p50).line("write p99 reduction", p99).line("throughput gain", gain)
                .reference(String.format(Locale.ROOT, "paper: p50 reduction %.1f%%-%.1f%%", P50_REDUCTION.low(),
                        P50_REDUCTION.high()), P50_REDUCTION)
                .reference(String.format(Locale.ROOT, "paper: throughput gain up to %+.1f%%", THROUGHPUT_GAIN.low()),
                        THROUGHPUT_GAIN);
        // the paper's "first two points" are its two lowest loads: the sweep's two smallest outstanding counts
        r.rows().stream().map(Row::outstanding).distinct().sorted().limit(2)
                .forEach(n -> chart.paper("write p99 reduction", n, P99_AT_LOW_LOAD));
        return chart;
    }

    private static String sloGain(Result r) {
        double visibility = r.underSlo(true);
        double ordered = r.underSlo(false);
        return visibility > 0 && ordered > 0 ? String.format(Locale.ROOT, "%+.1f%%", 100 * (visibility / ordered - 1))
                : "no point of the sweep meets it for " + (visibility == 0 ? "the visibility layer" : "ordered writes");
    }
}
