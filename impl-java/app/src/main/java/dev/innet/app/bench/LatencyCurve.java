package dev.innet.app.bench;

import dev.innet.costmodel.DiscreteEventSimulator;
import dev.innet.costmodel.LatencyReport;
import dev.innet.costmodel.SloSearch;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Exp#2: latency against target throughput (open-loop clients sending at a rate, as the paper's), by
 * discrete-event simulation of each scheme's queueing network. A target at or beyond a scheme's saturation
 * has no steady state (queues grow for as long as the run lasts) and is reported as saturated.
 */
public record LatencyCurve(List<Double> targetsMops, Map<String, List<LatencyReport>> reports,
        Map<String, Double> saturationMops, Map<String, SloSearch.Result> underSlo) {
    /** Operations the simulation measures per load level (after 10% warm-up). */
    static final int MEASURED = 60_000;
    /** The SLO of the throughput-under-SLO line (not a paper figure: FarReach's paper reports no SLO search). */
    public static final double SLO_P99_SECONDS = 1e-3;

    public static LatencyCurve measure(Experiments.Cell cell, List<Double> targetsMops, long seed) {
        Map<String, List<LatencyReport>> out = new LinkedHashMap<>();
        Map<String, Double> sat = new LinkedHashMap<>();
        Map<String, SloSearch.Result> slo = new LinkedHashMap<>();
        double perOp = cell.workload().rackOpsPerOperation();
        for (String scheme : Experiments.SCHEMES) {
            Modelled m = cell.get(scheme);
            DiscreteEventSimulator des = new DiscreteEventSimulator(m.network());
            List<LatencyReport> row = new ArrayList<>();
            for (double target : targetsMops) {
                double rackRate = target * 1e6 * perOp;
                row.add(rackRate >= 0.98 * m.saturation().opsPerSecond() ? null
                        : des.run(rackRate, MEASURED / 10, MEASURED, seed));
            }
            out.put(scheme, row);
            sat.put(scheme, m.mops());
            slo.put(scheme, SloSearch.maxThroughput(m.network(), 0.99, SLO_P99_SECONDS, MEASURED / 10, MEASURED, seed, 0.01));
        }
        return new LatencyCurve(targetsMops, out, sat, slo);
    }

    /** 1 - FarReach's mean latency / {@code other}'s at {@code targetMops}; NaN if either is saturated there. */
    public double reduction(String other, double targetMops) {
        int i = targetsMops.indexOf(targetMops);
        if (i < 0) {
            return Double.NaN;
        }
        LatencyReport fr = reports.get("farreach").get(i);
        LatencyReport o = reports.get(other).get(i);
        return fr == null || o == null ? Double.NaN : 1 - fr.mean() / o.mean();
    }

    public void print(PrintStream out) {
        out.println();
        out.println("Exp#2 (Fig. 8): YCSB A, 16 servers, latency (us) at target throughput: mean / p99");
        StringBuilder head = new StringBuilder("| target MOPS |");
        StringBuilder rule = new StringBuilder("|---|");
        for (String s : Experiments.SCHEMES) {
            head.append(' ').append(s).append(String.format(" (saturates at %.2f) |", saturationMops.get(s)));
            rule.append("---|");
        }
        out.println(head);
        out.println(rule);
        for (int i = 0; i < targetsMops.size(); i++) {
            StringBuilder line = new StringBuilder(String.format("| %.1f |", targetsMops.get(i)));
            for (String s : Experiments.SCHEMES) {
                LatencyReport r = reports.get(s).get(i);
                line.append(r == null ? " saturated |" : String.format(" %.1f / %.1f |", r.mean() * 1e6, r.p99() * 1e6));
            }
            out.println(line);
        }
        double t = PaperFigures.EXP2_TARGET_MOPS;
        out.printf("FarReach's mean latency at %.1f MOPS: %s lower than no-cache (paper %.0f%%), %s lower than NetCache"
                + " (paper %.0f%%)%n", t, pct(reduction("nocache", t)), PaperFigures.EXP2_REDUCTION_VS_NOCACHE * 100,
                pct(reduction("netcache", t)), PaperFigures.EXP2_REDUCTION_VS_NETCACHE * 100);
        StringBuilder sloLine = new StringBuilder(String.format("throughput with p99 <= %.0f us (not a paper figure):",
                SLO_P99_SECONDS * 1e6));
        underSlo.forEach((s, r) -> sloLine.append(String.format(" %s %.2f MOPS", s, r.opsPerSecond() / 1e6)));
        out.println(sloLine);
    }

    private static String pct(double v) {
        return Double.isNaN(v) ? "- (saturated)" : String.format("%.0f%%", v * 100);
    }
}
