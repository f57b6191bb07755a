package dev.innet.app.bench;

import dev.innet.app.bench.PaperFigures.Stated;
import dev.innet.costmodel.LatencyReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The bench's figures as one self-contained HTML page of inline SVG, in the style of the FarReach paper's
 * Fig. 7-10: grouped bars of throughput per scheme, and beside each the gains of FarReach as modelled and
 * as the paper states them (a stated range drawn as a bar to its midpoint with a whisker over the range).
 */
public final class BenchPlot {
    private static final String[] COLOURS = {"#9e9e9e", "#4f81bd", "#c0504d", "#f79646"};
    private static final int W = 560;
    private static final int H = 260;
    private static final int LEFT = 50;
    private static final int BOTTOM = 40;

    private BenchPlot() {}

    public static Path write(Path dir, List<RatioTable> tables, LatencyCurve latency) throws IOException {
        Files.createDirectories(dir);
        StringBuilder html = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>innet bench"
                + " farreach</title><style>body{font-family:sans-serif} figure{display:inline-block;margin:8px}"
                + " figcaption{font-size:13px}</style></head><body><h1>innet bench farreach: cost model vs the FarReach"
                + " paper</h1><p>Method and constants: docs/benchmarks.md. Paper values are the ratios its text states"
                + " (§5.2-5.3).</p>");
        for (RatioTable t : tables) {
            html.append("<h2>").append(esc(t.title())).append("</h2>");
            List<String> labels = new ArrayList<>();
            List<double[]> mops = new ArrayList<>();
            List<double[]> ratios = new ArrayList<>();
            List<double[][]> whiskers = new ArrayList<>();
            for (RatioTable.Row r : t.rows()) {
                var c = r.cell();
                labels.add(c.label());
                mops.add(new double[] {c.get("nocache").mops(), c.get("netcache").mops(), c.get("farreach").mops()});
                ratios.add(new double[] {c.frOverNoCache(), mid(r.paperOverNoCache()), c.frOverNetCache(),
                    mid(r.paperOverNetCache())});
                whiskers.add(new double[][] {null, range(r.paperOverNoCache()), null, range(r.paperOverNetCache())});
            }
            html.append(figure("Throughput (MOPS, modelled)", labels, mops, null,
                    new String[] {"NoCache", "NetCache", "FarReach"}));
            html.append(figure("FarReach's gain: model vs paper", labels, ratios, whiskers,
                    new String[] {"FR/NoCache model", "FR/NoCache paper", "FR/NetCache model", "FR/NetCache paper"}));
        }
        if (latency != null) {
            html.append("<h2>Exp#2 (Fig. 8): YCSB A, 16 servers, mean latency vs target throughput</h2>");
            html.append(latencyFigure(latency));
        }
        html.append("</body></html>\n");
        Path page = dir.resolve("index.html");
        Files.writeString(page, html, StandardCharsets.UTF_8);
        return page;
    }

    private static double mid(Stated s) {
        return s.known() ? s.mid() : Double.NaN;
    }

    private static double[] range(Stated s) {
        return s.known() && s.low() != s.high() ? new double[] {s.low(), s.high()} : null;
    }

    private static String figure(String caption, List<String> labels, List<double[]> groups, List<double[][]> whiskers,
            String[] series) {
        double max = 0;
        for (int g = 0; g < groups.size(); g++) {
            for (int i = 0; i < groups.get(g).length; i++) {
                double v = groups.get(g)[i];
                if (!Double.isNaN(v)) {
                    max = Math.max(max, v);
                }
                double[] wk = whiskers == null ? null : whiskers.get(g)[i];
                if (wk != null) {
                    max = Math.max(max, wk[1]);
                }
            }
        }
        max = niceCeiling(max);
        StringBuilder s = new StringBuilder("<figure><svg width=\"" + W + "\" height=\"" + (H + 30) + "\">");
        axes(s, max);
        double plotW = W - LEFT - 10;
        double groupW = plotW / groups.size();
        double barW = groupW * 0.8 / series.length;
        for (int g = 0; g < groups.size(); g++) {
            double x0 = LEFT + g * groupW + groupW * 0.1;
            for (int i = 0; i < series.length; i++) {
                double v = groups.get(g)[i];
                double x = x0 + i * barW;
                if (!Double.isNaN(v)) {
                    double h = v / max * (H - BOTTOM - 10);
                    s.append(String.format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s %s:"
                            + " %.2f</title></rect>", x, H - BOTTOM - h, barW - 1, h, COLOURS[i], esc(series[i]),
                            esc(labels.get(g)), v));
                }
                double[] wk = whiskers == null ? null : whiskers.get(g)[i];
                if (wk != null) {
                    double y1 = H - BOTTOM - wk[0] / max * (H - BOTTOM - 10);
                    double y2 = H - BOTTOM - wk[1] / max * (H - BOTTOM - 10);
                    double cx = x + barW / 2;
                    s.append(String.format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>", cx, y1, cx, y2));
                }
            }
            s.append(String.format("<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>",
                    LEFT + g * groupW + groupW / 2, H - BOTTOM + 14, esc(labels.get(g))));
        }
        legend(s, series);
        s.append("</svg><figcaption>").append(esc(caption)).append("</figcaption></figure>");
        return s.toString();
    }

    private static String latencyFigure(LatencyCurve c) {
        double maxX = c.targetsMops().get(c.targetsMops().size() - 1);
        double maxY = 0;
        for (var rows : c.reports().values()) {
            for (LatencyReport r : rows) {
                if (r != null) {
                    maxY = Math.max(maxY, r.mean() * 1e6);
                }
            }
        }
        maxY = niceCeiling(maxY);
        StringBuilder s = new StringBuilder("<figure><svg width=\"" + W + "\" height=\"" + (H + 30) + "\">");
        axes(s, maxY);
        int k = 0;
        String[] names = {"NoCache", "NetCache", "FarReach"};
        for (String scheme : Experiments.SCHEMES) {
            StringBuilder pts = new StringBuilder();
            List<LatencyReport> rows = c.reports().get(scheme);
            for (int i = 0; i < rows.size(); i++) {
                if (rows.get(i) == null) {
                    continue;
                }
                double x = LEFT + c.targetsMops().get(i) / maxX * (W - LEFT - 10);
                double y = H - BOTTOM - rows.get(i).mean() * 1e6 / maxY * (H - BOTTOM - 10);
                pts.append(String.format("%.1f,%.1f ", x, y));
                s.append(String.format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>", x, y, COLOURS[k]));
            }
            s.append(String.format("<polyline points=\"%s\" fill=\"none\" stroke=\"%s\"/>", pts, COLOURS[k]));
            k++;
        }
        for (double t : c.targetsMops()) {
            s.append(String.format("<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%.1f</text>",
                    LEFT + t / maxX * (W - LEFT - 10), H - BOTTOM + 14, t));
        }
        legend(s, names);
        s.append("</svg><figcaption>").append(esc(String.format("mean latency (us) vs target MOPS; paper at %.1f MOPS:"
                + " FarReach %.0f%% below NoCache, %.0f%% below NetCache; model: %s, %s",
                PaperFigures.EXP2_TARGET_MOPS, PaperFigures.EXP2_REDUCTION_VS_NOCACHE * 100,
                PaperFigures.EXP2_REDUCTION_VS_NETCACHE * 100, pct(c.reduction("nocache", PaperFigures.EXP2_TARGET_MOPS)),
                pct(c.reduction("netcache", PaperFigures.EXP2_TARGET_MOPS))))).append("</figcaption></figure>");
        return s.toString();
    }

    private static String pct(double v) {
        return Double.isNaN(v) ? "saturated" : String.format("%.0f%%", v * 100);
    }

    private static void axes(StringBuilder s, double max) {
        s.append(String.format("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>", LEFT, H - BOTTOM, W - 10, H - BOTTOM));
        s.append(String.format("<line x1=\"%d\" y1=\"10\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>", LEFT, LEFT, H - BOTTOM));
        for (int i = 0; i <= 4; i++) {
            double v = max * i / 4;
            double y = H - BOTTOM - (H - BOTTOM - 10) * i / 4.0;
            s.append(String.format("<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%s</text>", LEFT - 4, y + 3,
                    v >= 10 ? String.format("%.0f", v) : String.format("%.1f", v)));
        }
    }

    private static void legend(StringBuilder s, String[] series) {
        for (int i = 0; i < series.length; i++) {
            int x = LEFT + i * 125;
            s.append(String.format("<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>", x, H + 8, COLOURS[i]));
            s.append(String.format("<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>", x + 14, H + 17, esc(series[i])));
        }
    }

    private static double niceCeiling(double v) {
        if (!(v > 0)) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
