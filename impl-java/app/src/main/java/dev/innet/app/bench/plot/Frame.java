package dev.innet.app.bench.plot;

import dev.innet.app.bench.Stated;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The SVG every chart draws into: a plotting area with the y axis (ticks, and its name with the unit,
 * rotated) on the left, the x axis at the bottom (its ticks are the chart's; its name below them), and a
 * legend under it that wraps. Elements a test or a reader may want to pick out carry a class: a model's
 * bar or point {@code model}, a paper's {@code paper}.
 */
final class Frame {
    static final int WIDTH = 600;
    static final int LEFT = 64;
    static final int RIGHT = 16;
    static final int TOP = 12;
    static final int PLOT_HEIGHT = 230;
    /** A line of an x tick's label, and the x axis's name under the labels. */
    private static final int TICK_LINE = 13;
    private static final int X_NAME_SPACE = 22;
    /** About how wide a character of the 11-pixel labels is. */
    private static final double CHAR_WIDTH = 6.2;
    private static final int LEGEND_ROW = 16;
    private static final String[] COLOURS = {"#9e9e9e", "#4f81bd", "#c0504d", "#f79646", "#8064a2", "#4bacc6", "#9bbb59"};
    /** What the legend says of a paper's value drawn as a marker. */
    private static final String PAPER_KEY = "paper (stated; a range as a whisker)";

    private final StringBuilder body = new StringBuilder();
    private final Scale.Linear y;
    private final String xName;
    private final String yName;
    private final int tickLines;

    /** @param tickLines the lines the longest x tick label takes ({@link #wrap}) */
    Frame(String xName, String yName, Scale.Linear y, int tickLines) {
        this.xName = xName;
        this.yName = yName;
        this.y = y;
        this.tickLines = tickLines;
        for (double tick : y.ticks()) {
            double py = y(tick);
            body.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>",
                    LEFT, py, WIDTH - RIGHT, py));
            body.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%s</text>",
                    LEFT - 4, py + 3, Scale.label(tick)));
        }
    }

    static String colour(int series) {
        return COLOURS[series % COLOURS.length];
    }

    static double plotWidth() {
        return WIDTH - LEFT - RIGHT;
    }

    /** The pixel row of {@code value} on the y axis. */
    double y(double value) {
        return TOP + PLOT_HEIGHT - y.fraction(value) * PLOT_HEIGHT;
    }

    /** The pixel column of a fraction of the x axis. */
    static double x(double fraction) {
        return LEFT + fraction * plotWidth();
    }

    /** An x tick's label centred at {@code px}, wrapped to {@code width} pixels. */
    void xTick(double px, String label, double width) {
        body.append(String.format(Locale.ROOT, "<text y=\"%d\" font-size=\"11\" text-anchor=\"middle\">", TOP + PLOT_HEIGHT + 14));
        List<String> lines = wrap(label, width);
        for (int i = 0; i < lines.size(); i++) {
            body.append(String.format(Locale.ROOT, "<tspan x=\"%.1f\" dy=\"%d\">%s</tspan>", px, i == 0 ? 0 : TICK_LINE,
                    escape(lines.get(i))));
        }
        body.append("</text>");
    }

    /** {@code label} in lines of at most {@code width} pixels, broken at spaces (a longer word stays whole). */
    static List<String> wrap(String label, double width) {
        int most = Math.max(4, (int) (width / CHAR_WIDTH));
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : label.split(" ")) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > most) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.isEmpty() ? "" : " ").append(word);
        }
        lines.add(line.toString());
        return lines;
    }

    /** A bar from the axis up to {@code value}; {@code kind} is {@code model} or {@code paper}. */
    void bar(double left, double width, double value, String colour, String kind, String tooltip) {
        double top = Math.min(y(value), y(0)); // a negative value hangs below the axis at 0
        body.append(String.format(Locale.ROOT, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
                + " fill=\"%s\"><title>%s</title></rect>", kind, left, top, width, Math.abs(y(0) - y(value)), colour,
                escape(tooltip)));
    }

    /**
     * A paper's value at column {@code px}: a whisker with caps over a stated range, a diamond on a single
     * number; unknown values draw nothing.
     */
    void paperMarker(double px, Stated paper, boolean diamondOnSingleValue, String tooltip) {
        if (!paper.known()) {
            return;
        }
        String title = "<title>" + escape(tooltip) + "</title>";
        if (paper.range()) {
            double low = y(paper.low());
            double high = y(paper.high());
            body.append(String.format(Locale.ROOT, "<g class=\"paper\" stroke=\"black\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\""
                    + " y2=\"%.1f\"/><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><line x1=\"%.1f\" y1=\"%.1f\""
                    + " x2=\"%.1f\" y2=\"%.1f\"/>%s</g>", px, low, px, high, px - 3, low, px + 3, low, px - 3, high, px + 3,
                    high, title));
        } else if (diamondOnSingleValue) {
            body.append(diamond(px, y(paper.low()), "paper", title));
        }
    }

    /** A line through the points, which are already in pixels; a point per pixel pair with its tooltip. */
    void polyline(List<double[]> pixels, List<String> tooltips, String colour) {
        if (pixels.isEmpty()) {
            return;
        }
        StringBuilder points = new StringBuilder();
        for (double[] p : pixels) {
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", p[0], p[1]));
        }
        body.append(String.format("<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>",
                points.toString().strip(), colour));
        for (int i = 0; i < pixels.size(); i++) {
            body.append(String.format(Locale.ROOT, "<circle class=\"model\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\">"
                    + "<title>%s</title></circle>", pixels.get(i)[0], pixels.get(i)[1], colour, escape(tooltips.get(i))));
        }
    }

    /** A dashed horizontal line at {@code value} across the plot, labelled at its right end. */
    void reference(double value, String label, String tooltip) {
        double py = y(value);
        body.append(String.format(Locale.ROOT, "<g class=\"paper\"><title>%s</title><line x1=\"%d\" y1=\"%.1f\" x2=\"%d\""
                + " y2=\"%.1f\" stroke=\"black\" stroke-dasharray=\"4 3\"/><text x=\"%d\" y=\"%.1f\" font-size=\"10\""
                + " text-anchor=\"end\">%s</text></g>", escape(tooltip), LEFT, py, WIDTH - RIGHT, py, WIDTH - RIGHT - 2, py - 3,
                escape(label)));
    }

    /**
     * Closes the SVG: the axes over what was drawn, their names, and the legend ({@code series} in their
     * colours, then the paper's marker when {@code paperKey}).
     */
    String finish(List<String> series, boolean paperKey) {
        StringBuilder legend = new StringBuilder();
        int row = 0;
        double at = LEFT;
        int axisY = TOP + PLOT_HEIGHT;
        int xNameY = axisY + tickLines * TICK_LINE + X_NAME_SPACE - 4;
        int legendTop = xNameY + 10;
        for (int i = 0; i <= series.size(); i++) {
            boolean paper = i == series.size();
            if (paper && !paperKey) {
                break;
            }
            String name = paper ? PAPER_KEY : series.get(i);
            double width = 30 + CHAR_WIDTH * name.length();
            if (at + width > WIDTH && at > LEFT) {
                row++;
                at = LEFT;
            }
            int top = legendTop + row * LEGEND_ROW;
            legend.append(paper ? diamond(at + 5, top + 5, "key", "")
                    : String.format(Locale.ROOT, "<rect class=\"key\" x=\"%.1f\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>",
                            at, top, colour(i)));
            legend.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%s</text>", at + 14, top + 9,
                    escape(name)));
            at += width;
        }
        int height = legendTop + (row + 1) * LEGEND_ROW + 4;
        return String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\">", WIDTH, height) + body
                + String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>", LEFT, axisY,
                        WIDTH - RIGHT, axisY)
                + String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>", LEFT, TOP, LEFT,
                        axisY)
                + String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>",
                        x(0.5), xNameY, escape(xName))
                + String.format(Locale.ROOT, "<text transform=\"translate(14,%.1f) rotate(-90)\" font-size=\"12\""
                        + " text-anchor=\"middle\">%s</text>", TOP + PLOT_HEIGHT / 2.0, escape(yName))
                + legend + "</svg>";
    }

    private static String diamond(double cx, double cy, String kind, String title) {
        return String.format(Locale.ROOT, "<path class=\"%s\" d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\" fill=\"white\" stroke=\"black\""
                + " stroke-width=\"1.5\">%s</path>", kind, cx, cy - 5, title);
    }

    /** A paper's value as a tooltip gives it: the number or range, and where the paper states it. */
    static String stated(Stated paper) {
        return paper.text() + " (" + paper.source() + ")";
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
