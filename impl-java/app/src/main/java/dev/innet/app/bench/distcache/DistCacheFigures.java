package dev.innet.app.bench.distcache;

import dev.innet.app.bench.distcache.DistCacheModel.Mechanism;
import dev.innet.app.bench.distcache.DistCacheModel.Result;
import dev.innet.app.bench.plot.LineChart;
import dev.innet.app.bench.plot.LineChart.Point;
import dev.innet.app.bench.plot.PlotPage;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./innet bench distcache --plot}: the DistCache paper's Fig. 9(c) (throughput against the number of
 * servers, a line per mechanism) for each skew, and its Fig. 10 (throughput against the write ratio) for
 * each skew, from the bench's tables. The paper's text states no number for either figure, only their
 * shapes, so no paper value is drawn: the captions quote what the text says.
 */
final class DistCacheFigures {
    private static final List<Mechanism> MECHANISMS = List.of(Mechanism.NOCACHE, Mechanism.CACHE_PARTITION,
            Mechanism.CACHE_REPLICATION, Mechanism.DISTCACHE);
    private static final List<String> NAMES = List.of("NoCache", "CachePartition", "CacheReplication", "DistCache");
    private static final String THROUGHPUT = "throughput (servers' throughputs)";

    /** Per skew, per mechanism, its points: servers or write ratio (%) against throughput. */
    private final Map<Double, Map<Mechanism, List<Point>>> scalability = new LinkedHashMap<>();
    private final Map<Double, Map<Mechanism, List<Point>>> writes = new LinkedHashMap<>();

    /** A row of the scalability table: {@code results} in the order NoCache, CachePartition, CacheReplication, DistCache. */
    void scalability(double alpha, int servers, Result... results) {
        add(scalability, alpha, servers, results);
    }

    /** A row of the write-ratio table, as {@link #scalability}. */
    void writeRatio(double alpha, double writeRatio, Result... results) {
        add(writes, alpha, 100 * writeRatio, results);
    }

    private static void add(Map<Double, Map<Mechanism, List<Point>>> figure, double alpha, double x, Result[] results) {
        Map<Mechanism, List<Point>> lines = figure.computeIfAbsent(alpha, a -> new EnumMap<>(Mechanism.class));
        for (int i = 0; i < MECHANISMS.size(); i++) {
            lines.computeIfAbsent(MECHANISMS.get(i), m -> new ArrayList<>())
                    .add(new Point(x, results[i].throughput(), "bottleneck " + results[i].bottleneck()));
        }
    }

    PlotPage page(int racksForWrites) {
        PlotPage page = new PlotPage("innet bench distcache: cost model of the DistCache paper's experiments",
                "The real DistCache's measured message pattern priced at the paper's scale by the cost model; throughput in"
                        + " units of one server's. The paper's text gives no throughput numbers for these figures (only"
                        + " their curves), so none is drawn. Method and constants: docs/benchmarks.md, \"DistCache\".");
        page.section("Scalability (§6.2, Fig. 9c): read-only");
        scalability.forEach((alpha, lines) -> page.figure(chart("servers", true, lines), String.format(Locale.ROOT,
                "Zipf %.2f. The paper states no numbers for Fig. 9(c): \"DistCache provides the same performance as"
                        + " CacheReplication and scales out linearly\"; NoCache and CachePartition stop scaling.", alpha)));
        page.section(String.format(Locale.ROOT, "Write ratio (§6.3, Fig. 10): %d racks, %d spines", racksForWrites,
                racksForWrites));
        writes.forEach((alpha, lines) -> page.figure(chart("write ratio (%)", false, lines), String.format(Locale.ROOT,
                "Zipf %.2f. The paper states no numbers for Fig. 10: CacheReplication \"drops very quickly\", DistCache's"
                        + " throughput \"reduces slowly with the write ratio\", NoCache \"is not affected\".", alpha)));
        return page;
    }

    private static LineChart chart(String xName, boolean logX, Map<Mechanism, List<Point>> lines) {
        LineChart chart = new LineChart(xName, logX, THROUGHPUT);
        for (int i = 0; i < MECHANISMS.size(); i++) {
            chart.line(NAMES.get(i), lines.get(MECHANISMS.get(i)));
        }
        return chart;
    }
}
