package dev.innet.app.bench.plot;

import dev.innet.app.bench.Stated;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Grouped bars, as the papers draw throughput per scheme per workload: one group per row of a bench's
 * table (its label under the group), one bar per series in the series' colour. A bar is the model's
 * value, or a paper's stated value drawn as a bar to its midpoint with a whisker over its range; a model's
 * bar may instead carry the paper's value for the same cell as a marker on it.
 */
public final class BarChart implements Chart {
    /** One bar: the model's {@code value}, or a paper's when {@code paperBar}; {@code paper} may be {@link Stated#NONE}. */
    public record Bar(double value, Stated paper, boolean paperBar) {
        public static Bar of(double value) {
            return new Bar(value, Stated.NONE, false);
        }

        /** The paper's value as a bar of its own; none where the paper gives no number. */
        public static Bar stated(Stated paper) {
            return new Bar(paper.known() ? paper.mid() : Double.NaN, paper, true);
        }

        /** The model's bar with the paper's value for the same cell marked on it. */
        public Bar withPaper(Stated stated) {
            return new Bar(value, stated, false);
        }

        /** The values the bar and its paper marker reach. */
        Stream<Double> extent() {
            double v = Double.isNaN(value) ? 0 : value;
            return paper.known() ? Stream.of(v, paper.low(), paper.high()) : Stream.of(v);
        }
    }

    private final String xName;
    private final String yName;
    private final List<String> series;
    private final List<String> labels = new ArrayList<>();
    private final List<List<Bar>> groups = new ArrayList<>();

    /**
     * @param xName what the groups are (the x axis's name)
     * @param yName the quantity with its unit
     * @param series the bars of each group, in order
     */
    public BarChart(String xName, String yName, List<String> series) {
        this.xName = xName;
        this.yName = yName;
        this.series = List.copyOf(series);
    }

    /** Adds a group: one bar per series. */
    public BarChart group(String label, Bar... bars) {
        if (bars.length != series.size()) {
            throw new IllegalArgumentException(label + ": " + bars.length + " bars for " + series.size() + " series " + series);
        }
        labels.add(label);
        groups.add(List.of(bars));
        return this;
    }

    @Override
    public String svg() {
        List<Double> extents = groups.stream().flatMap(List::stream).flatMap(Bar::extent).toList();
        double groupWidth = Frame.plotWidth() / Math.max(1, groups.size());
        int tickLines = labels.stream().mapToInt(l -> Frame.wrap(l, groupWidth).size()).max().orElse(1);
        Frame frame = new Frame(xName, yName, Scale.Linear.covering(extents), tickLines);
        double barWidth = groupWidth * 0.8 / series.size();
        boolean markers = false;
        for (int g = 0; g < groups.size(); g++) {
            double left = Frame.x(0) + g * groupWidth + groupWidth * 0.1;
            for (int i = 0; i < series.size(); i++) {
                Bar bar = groups.get(g).get(i);
                double x = left + i * barWidth;
                String what = series.get(i) + ", " + labels.get(g);
                if (!Double.isNaN(bar.value())) {
                    frame.bar(x, barWidth - 1, bar.value(), Frame.colour(i), bar.paperBar() ? "paper" : "model",
                            what + ": " + (bar.paperBar() ? Frame.stated(bar.paper())
                                    : String.format(Locale.ROOT, "%.2f", bar.value())));
                }
                markers |= !bar.paperBar() && bar.paper().known();
                frame.paperMarker(x + barWidth / 2, bar.paper(), !bar.paperBar(),
                        what + ", paper: " + Frame.stated(bar.paper()));
            }
            frame.xTick(Frame.x(0) + g * groupWidth + groupWidth / 2, labels.get(g), groupWidth);
        }
        return frame.finish(series, markers);
    }
}
