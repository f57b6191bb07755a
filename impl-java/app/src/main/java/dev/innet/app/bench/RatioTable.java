package dev.innet.app.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints experiment rows as the docs' tables: modelled throughput per scheme, then FarReach's gain over
 * NoCache and over NetCache as model, paper and model/paper (against the nearer end of a stated range; 1.00
 * inside it), with the station that limits FarReach and the switch's answer ratios.
 */
public final class RatioTable {
    /** One printed row with the paper's figures for it. */
    public record Row(Experiments.Cell cell, Stated paperOverNoCache, Stated paperOverNetCache) {}

    private final String title;
    private final String rowName;
    private final List<Row> rows = new ArrayList<>();

    /** @param rowName what a row is (a workload, a server count): the x axis of the table's figures */
    public RatioTable(String title, String rowName) {
        this.title = title;
        this.rowName = rowName;
    }

    public void add(Experiments.Cell cell, Stated overNoCache, Stated overNetCache) {
        rows.add(new Row(cell, overNoCache, overNetCache));
    }

    public String title() {
        return title;
    }

    public String rowName() {
        return rowName;
    }

    public List<Row> rows() {
        return rows;
    }

    /** model / paper, with a stated range counting as a match anywhere inside it; NaN if the paper is silent. */
    public static double agreement(double model, Stated paper) {
        if (!paper.known()) {
            return Double.NaN;
        }
        if (model >= paper.low() && model <= paper.high()) {
            return 1.0;
        }
        return model < paper.low() ? model / paper.low() : model / paper.high();
    }

    public void print(PrintStream out) {
        out.println();
        out.println(title);
        out.println("| row | servers | no-cache MOPS | NetCache MOPS | FarReach MOPS | FR/none model | paper | model/paper"
                + " | FR/NC model | paper | model/paper | FarReach bottleneck | switch answered NC / FR |");
        out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Row r : rows) {
            var c = r.cell();
            double a = c.frOverNoCache();
            double b = c.frOverNetCache();
            out.printf("| %s | %d | %.2f | %.2f | %.2f | %.2f | %s | %s | %.2f | %s | %s | %s | %.2f / %.2f |%n", c.label(),
                    c.servers(), c.get("nocache").mops(), c.get("netcache").mops(), c.get("farreach").mops(), a,
                    r.paperOverNoCache().text(), fmt(agreement(a, r.paperOverNoCache())), b,
                    r.paperOverNetCache().text(), fmt(agreement(b, r.paperOverNetCache())),
                    c.get("farreach").saturation().bottleneck(), c.get("netcache").run().hitRatio(),
                    c.get("farreach").run().hitRatio());
        }
    }

    static String fmt(double v) {
        return Double.isNaN(v) ? "-" : String.format("%.2f", v);
    }
}
