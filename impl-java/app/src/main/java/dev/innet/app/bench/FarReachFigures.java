package dev.innet.app.bench;

import dev.innet.app.bench.plot.BarChart;
import dev.innet.app.bench.plot.BarChart.Bar;
import dev.innet.app.bench.plot.LineChart;
import dev.innet.app.bench.plot.PlotPage;
import dev.innet.costmodel.LatencyReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./innet bench farreach --plot}: the figures in the style of the FarReach paper's Fig. 7-10,
 * grouped bars of throughput per scheme, and beside each the gains of FarReach as modelled and as the
 * paper states them (a stated range drawn as a bar to its midpoint with a whisker over the range); Exp#2's
 * latency against target throughput as lines (Fig. 8).
 */
public final class FarReachFigures {
    private static final List<String> SCHEMES = List.of("NoCache", "NetCache", "FarReach");

    private FarReachFigures() {}

    public static PlotPage page(List<RatioTable> tables, LatencyCurve latency) {
        PlotPage page = new PlotPage("innet bench farreach: cost model vs the FarReach paper",
                "Method and constants: docs/benchmarks.md. Paper values are the ratios its text states (§5.2-5.3).");
        for (RatioTable t : tables) {
            page.section(t.title());
            BarChart mops = new BarChart(t.rowName(), "throughput (MOPS, modelled)", SCHEMES);
            BarChart gains = new BarChart(t.rowName(), "FarReach's throughput over the other's (x)",
                    List.of("FR/NoCache model", "FR/NoCache paper", "FR/NetCache model", "FR/NetCache paper"));
            List<String> silent = new ArrayList<>();
            for (RatioTable.Row r : t.rows()) {
                var c = r.cell();
                mops.group(c.label(), Bar.of(c.get("nocache").mops()), Bar.of(c.get("netcache").mops()),
                        Bar.of(c.get("farreach").mops()));
                gains.group(c.label(), Bar.of(c.frOverNoCache()), Bar.stated(r.paperOverNoCache()), Bar.of(c.frOverNetCache()),
                        Bar.stated(r.paperOverNetCache()));
                if (!r.paperOverNoCache().known() || !r.paperOverNetCache().known()) {
                    silent.add(c.label());
                }
            }
            page.figure(mops, "Throughput (MOPS, modelled)");
            page.figure(gains, "FarReach's gain: model vs paper" + (silent.isEmpty() ? ""
                    : "; the paper states no ratio for " + String.join(", ", silent) + " (no paper bar there)"));
        }
        if (latency != null) {
            page.section("Exp#2 (Fig. 8): YCSB A, 16 servers, mean latency vs target throughput");
            page.figure(latencyChart(latency), String.format(Locale.ROOT, "mean latency (us) vs target MOPS; paper at %.1f MOPS:"
                    + " FarReach %.0f%% below NoCache, %.0f%% below NetCache; model: %s, %s",
                    PaperFigures.EXP2_TARGET_MOPS, PaperFigures.EXP2_REDUCTION_VS_NOCACHE * 100,
                    PaperFigures.EXP2_REDUCTION_VS_NETCACHE * 100, pct(latency.reduction("nocache", PaperFigures.EXP2_TARGET_MOPS)),
                    pct(latency.reduction("netcache", PaperFigures.EXP2_TARGET_MOPS))));
        }
        return page;
    }

    private static LineChart latencyChart(LatencyCurve c) {
        LineChart chart = new LineChart("target throughput (MOPS)", false, "mean latency (µs)");
        for (int s = 0; s < Experiments.SCHEMES.size(); s++) {
            List<LatencyReport> rows = c.reports().get(Experiments.SCHEMES.get(s));
            List<LineChart.Point> points = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                // a saturated target has no steady state: no point, and the line stops there
                points.add(LineChart.Point.at(c.targetsMops().get(i), rows.get(i) == null ? Double.NaN : rows.get(i).mean() * 1e6));
            }
            chart.line(SCHEMES.get(s), points);
        }
        return chart;
    }

    private static String pct(double v) {
        return Double.isNaN(v) ? "saturated" : String.format(Locale.ROOT, "%.0f%%", v * 100);
    }
}
