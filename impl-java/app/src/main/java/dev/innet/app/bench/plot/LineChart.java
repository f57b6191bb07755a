package dev.innet.app.bench.plot;

import dev.innet.app.bench.Stated;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Curves of a quantity against a numeric x (throughput against skew, write ratio or servers; latency
 * against load), one line per series; a point whose y is NaN (saturated, not measured) breaks its line.
 * The paper's values are markers at their x (a diamond on one number, a whisker over a range), and a
 * paper's bound with no x (an "up to") a dashed line across the plot.
 */
public final class LineChart implements Chart {
    /** A point of a line; {@code label}, if not null, names it in its tooltip (the load level it is at, say). */
    public record Point(double x, double y, String label) {
        public static Point at(double x, double y) {
            return new Point(x, y, null);
        }
    }

    private record Line(String name, List<Point> points) {}

    private record PaperPoint(String name, double x, Stated y) {}

    private record Reference(String label, Stated y) {}

    private final String xName;
    private final boolean logX;
    private final String yName;
    private final List<Line> lines = new ArrayList<>();
    private final List<PaperPoint> paper = new ArrayList<>();
    private final List<Reference> references = new ArrayList<>();

    /**
     * @param xName the x quantity with its unit
     * @param logX a logarithmic x axis, each x drawn ticked (for doubling counts); x must then be positive
     * @param yName the y quantity with its unit
     */
    public LineChart(String xName, boolean logX, String yName) {
        this.xName = xName;
        this.logX = logX;
        this.yName = yName;
    }

    public LineChart line(String name, List<Point> points) {
        if (logX && points.stream().anyMatch(p -> !(p.x() > 0))) {
            throw new IllegalArgumentException(name + ": a logarithmic axis needs positive x: " + points);
        }
        lines.add(new Line(name, List.copyOf(points)));
        return this;
    }

    /** The paper's value for series {@code name} at {@code x}; nothing is drawn for {@link Stated#NONE}. */
    public LineChart paper(String name, double x, Stated y) {
        if (y.known()) {
            paper.add(new PaperPoint(name, x, y));
        }
        return this;
    }

    /**
     * A value the paper states with no x to place it at (an "up to", or a range over the whole sweep): a
     * dashed line across the plot at each end of a range, or at the one number, labelled once above the
     * upper line.
     */
    public LineChart reference(String label, Stated y) {
        if (y.known()) {
            references.add(new Reference(label, y));
        }
        return this;
    }

    @Override
    public String svg() {
        List<Double> xs = Stream.concat(lines.stream().flatMap(l -> l.points().stream()).map(Point::x),
                paper.stream().map(PaperPoint::x)).toList();
        Scale x = logX ? new Scale.Logarithmic(new TreeSet<>(xs)) : Scale.Linear.covering(xs);
        List<Double> ys = Stream.of(
                lines.stream().flatMap(l -> l.points().stream()).map(Point::y),
                paper.stream().flatMap(p -> Stream.of(p.y().low(), p.y().high())),
                references.stream().flatMap(r -> Stream.of(r.y().low(), r.y().high()))).flatMap(s -> s)
                .filter(v -> !Double.isNaN(v)).toList();
        Frame frame = new Frame(xName, yName, Scale.Linear.covering(ys), 1);
        for (double tick : x.ticks()) {
            frame.xTick(Frame.x(x.fraction(tick)), Scale.label(tick), Double.MAX_VALUE);
        }
        for (Reference r : references) {
            String tooltip = "paper: " + Frame.stated(r.y());
            if (r.y().range()) {
                frame.reference(r.y().low(), "", tooltip);
            }
            frame.reference(r.y().high(), r.label(), tooltip);
        }
        for (int i = 0; i < lines.size(); i++) {
            Line line = lines.get(i);
            List<double[]> run = new ArrayList<>();
            List<String> tooltips = new ArrayList<>();
            for (Point p : line.points()) {
                if (Double.isNaN(p.y())) {
                    frame.polyline(run, tooltips, Frame.colour(i));
                    run = new ArrayList<>();
                    tooltips = new ArrayList<>();
                    continue;
                }
                run.add(new double[] {Frame.x(x.fraction(p.x())), frame.y(p.y())});
                tooltips.add(line.name() + (p.label() == null ? "" : ", " + p.label())
                        + String.format(Locale.ROOT, ": x %s, y %.2f", Scale.label(p.x()), p.y()));
            }
            frame.polyline(run, tooltips, Frame.colour(i));
        }
        for (PaperPoint p : paper) {
            frame.paperMarker(Frame.x(x.fraction(p.x())), p.y(), true, p.name() + " at " + Scale.label(p.x()) + ", paper: "
                    + Frame.stated(p.y()));
        }
        return frame.finish(lines.stream().map(Line::name).toList(), !paper.isEmpty());
    }
}
