package dev.innet.app.bench.pegasus;

import dev.innet.app.bench.Stated;
import dev.innet.app.bench.pegasus.PegasusExperiments.Measured;
import dev.innet.app.bench.plot.BarChart;
import dev.innet.app.bench.plot.BarChart.Bar;
import dev.innet.app.bench.plot.LineChart;
import dev.innet.app.bench.plot.LineChart.Point;
import dev.innet.app.bench.plot.PlotPage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * {@code ./innet bench pegasus --plot}: each experiment's table as the Pegasus paper draws it (Fig. 7 bars
 * against skew; Fig. 8, 9 and 11 lines against the write ratio, servers and replicated keys; Fig. 14's
 * steady states as bars), and the ratios its §9 text states beside the model's. The paper's other numbers
 * are only in its figures' curves, so those figures' captions say that it states none.
 */
final class PegasusFigures {
    private static final String SLO_AXIS = "throughput with p99 ≤ 50 µs (MOPS)";
    private static final List<String> SCHEMES = List.of("consistent hashing", "NetCache", "Pegasus");
    private static final List<String> MODEL_AND_PAPER = List.of("model", "paper");

    static final Stated PEGASUS_OVER_CH = Stated.of(PegasusBench.PAPER_PEGASUS_OVER_CH,
            "§9.1: \"At α = 1.2, Pegasus achieves a 10x throughput improvement over consistent hashing\"");
    static final Stated CH_SKEWED_SHARE = Stated.of(PegasusBench.PAPER_CH_SKEWED_SHARE,
            "§9.1: consistent hashing's throughput \"drops to as low as 10%\"");
    /** "Drops by more than 80%": anywhere below 0.20 of its read-only throughput. */
    static final Stated NETCACHE_AT_10 = new Stated(0, 1 - PegasusBench.PAPER_NETCACHE_DROP_AT_10,
            "§9.2: \"Even when only 10% of requests are writes, its throughput drops by more than 80%\"");
    static final Stated PEGASUS_OVER_NETCACHE = Stated.of(PegasusBench.PAPER_PEGASUS_OVER_NETCACHE_MAX,
            "§9.2: Pegasus achieves \"as much as 11.8x the throughput as NetCache\"");
    static final Stated TWO_RACKS = Stated.of(PegasusBench.PAPER_TWO_RACKS,
            "§9.8: \"the two-rack configuration has 1.7x the throughput\"");
    static final Stated SURVIVOR_OF_TWO = Stated.of(0.5,
            "§9.8: \"able to continue processing at half of its speed using the remaining rack\"");

    private final PlotPage page = new PlotPage("innet bench pegasus: cost model vs the Pegasus paper",
            "Simulated racks' message counts priced on the paper's testbed; throughput is the highest load whose p99"
                    + " stays within the paper's 50 µs SLO. Method and constants: docs/benchmarks.md, \"Pegasus\".");

    PlotPage page() {
        return page;
    }

    /** Fig. 7: rows are consistent hashing, NetCache, Pegasus per α; {@code uniform} is consistent hashing's uniform run. */
    void skew(List<Double> alphas, List<Measured[]> rows, Measured uniform) {
        page.section("Skew (§9.1, Fig. 7): read-only, 16 servers");
        BarChart mops = new BarChart("Zipf α", SLO_AXIS, SCHEMES);
        BarChart gain = new BarChart("Zipf α", "Pegasus / consistent hashing (x)", MODEL_AND_PAPER);
        BarChart share = new BarChart("Zipf α", "consistent hashing / its uniform throughput", MODEL_AND_PAPER);
        for (int i = 0; i < alphas.size(); i++) {
            double a = alphas.get(i);
            String label = a == 0 ? "uniform" : Double.toString(a);
            Measured[] r = rows.get(i);
            mops.group(label, Bar.of(r[0].sloMops()), Bar.of(r[1].sloMops()), Bar.of(r[2].sloMops()));
            boolean stated = a == 1.2;
            gain.group(label, Bar.of(r[2].sloMops() / r[0].sloMops()), Bar.stated(stated ? PEGASUS_OVER_CH : Stated.NONE));
            share.group(label, Bar.of(r[0].sloMops() / uniform.sloMops()), Bar.stated(stated ? CH_SKEWED_SHARE : Stated.NONE));
        }
        page.figure(mops, "Throughput under the SLO per scheme (modelled). The paper's text gives no throughput for"
                + " Fig. 7, only the two ratios in the next figures.");
        page.figure(gain, "Pegasus over consistent hashing: the paper states 10x at α = 1.2 (§9.1) and no number at"
                + " the other skews (no paper bar there).");
        page.figure(share, "Consistent hashing's share of its uniform throughput: the paper's \"as low as 10%\" (§9.1)"
                + " is drawn at α = 1.2, its most skewed point; no number at the others.");
    }

    /** Fig. 8: rows are consistent hashing, NetCache, Pegasus per write ratio; {@code netCacheReadOnly} at 0% writes. */
    void writes(List<Integer> percents, List<Measured[]> rows, Measured netCacheReadOnly) {
        page.section("Write ratio (§9.2, Fig. 8): zipf 1.2, 16 servers");
        LineChart mops = new LineChart("write ratio (%)", false, SLO_AXIS);
        for (int s = 0; s < SCHEMES.size(); s++) {
            int scheme = s;
            mops.line(SCHEMES.get(s), points(percents, rows, r -> r[scheme].sloMops()));
        }
        page.figure(mops, "Throughput under the SLO against the write ratio (modelled). The paper's text gives no"
                + " throughput for Fig. 8, only the ratios in the next figures.");
        LineChart drop = new LineChart("write ratio (%)", false, "NetCache / its read-only throughput")
                .line("NetCache, model", points(percents, rows, r -> r[1].sloMops() / netCacheReadOnly.sloMops()))
                .paper("NetCache", 10, NETCACHE_AT_10);
        page.figure(drop, "NetCache's share of its read-only throughput. The paper: \"drops by more than 80%\" at 10%"
                + " writes, i.e. below 0.20 (the whisker from 0 to 0.20 at 10%); no number at the other ratios.");
        LineChart over = new LineChart("write ratio (%)", false, "Pegasus / NetCache (x)")
                .line("Pegasus / NetCache, model", points(percents, rows, r -> r[2].sloMops() / r[1].sloMops()))
                .reference(String.format(Locale.ROOT, "paper: up to %.1fx", PEGASUS_OVER_NETCACHE.low()),
                        PEGASUS_OVER_NETCACHE);
        page.figure(over, "Pegasus over NetCache. The paper: \"as much as 11.8x\" (§9.2), without saying at which write"
                + " ratio, so it is a dashed line across the plot rather than a point.");
    }

    /** Fig. 9: rows are consistent hashing and Pegasus per server count. */
    void servers(List<Integer> counts, List<Measured[]> rows) {
        page.section("Servers (§9.3, Fig. 9): zipf 1.2, read-only");
        LineChart chart = new LineChart("servers", true, SLO_AXIS)
                .line("consistent hashing", points(counts, rows, r -> r[0].sloMops()))
                .line("Pegasus", points(counts, rows, r -> r[1].sloMops()));
        page.figure(chart, "Throughput under the SLO against the number of servers (modelled). The paper gives no"
                + " numbers for Fig. 9, only its shape: \"Pegasus scales nearly linearly to 16 servers; consistent"
                + " hashing stops scaling after two servers\".");
    }

    /** Fig. 11: Pegasus per directory size. */
    void replicatedKeys(List<Integer> slots, List<Measured> rows) {
        page.section("Replicated keys (§9.5, Fig. 11): zipf 1.2, read-only, 16 servers");
        LineChart chart = new LineChart("directory slots (replicated keys at most)", true, SLO_AXIS)
                .line("Pegasus", points(slots, rows, Measured::sloMops));
        page.figure(chart,
                "Pegasus's throughput under the SLO against its directory's size (modelled). The paper gives no"
                        + " numbers for Fig. 11: \"only 8-16 replicated keys are needed to achieve most of Pegasus's load"
                        + " balancing benefit\".");
    }

    /** Fig. 14's steady states: one rack, two racks, two racks after one failed. */
    void racks(Measured one, Measured two, Measured failed) {
        page.section("Two racks (§9.8, Fig. 14): zipf 1.2, read-only, 16 servers per rack");
        BarChart mops = new BarChart("configuration", "throughput (MOPS)", List.of("with p99 ≤ 50 µs", "saturation"))
                .group("one rack", sloAndSaturation(one))
                .group("two racks", sloAndSaturation(two))
                .group("two racks, one failed", sloAndSaturation(failed));
        page.figure(mops, "Fig. 14 is a time series around a rack's failure; these are its three steady states, run on"
                + " simulated racks (the two-rack ones with Pegasus's chain replication).");
        BarChart ratios = new BarChart("ratio", "throughput ratio under the SLO (x)", MODEL_AND_PAPER)
                .group("two racks / one rack", Bar.of(two.sloMops() / one.sloMops()), Bar.stated(TWO_RACKS))
                .group("after the failure / two racks", Bar.of(failed.sloMops() / two.sloMops()), Bar.stated(SURVIVOR_OF_TWO));
        page.figure(ratios, "The paper's two numbers for Fig. 14 (§9.8): two racks have 1.7x one rack's throughput, and"
                + " after one fails the pair continues \"at half of its speed\" (0.5).");
    }

    private static Bar[] sloAndSaturation(Measured m) {
        return new Bar[] {Bar.of(m.sloMops()), Bar.of(m.saturationMops())};
    }

    private static <R> List<Point> points(List<Integer> xs, List<R> rows, ToDoubleFunction<R> y) {
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < xs.size(); i++) {
            points.add(Point.at(xs.get(i), y.applyAsDouble(rows.get(i))));
        }
        return points;
    }
}
