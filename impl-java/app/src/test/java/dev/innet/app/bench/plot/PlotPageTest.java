package dev.innet.app.bench.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.app.bench.Stated;
import dev.innet.app.bench.plot.BarChart.Bar;
import dev.innet.app.bench.plot.LineChart.Point;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benches' charts: what each kind of value draws, and what nothing draws. */
class PlotPageTest {
    @Test
    void barsDrawTheModelAndThePaperAsStatedAndNothingWhereEitherIsSilent() {
        String svg = new BarChart("workload", "throughput (MOPS)", List.of("model", "paper", "other"))
                .group("A", Bar.of(1.5), Bar.stated(new Stated(1.67, 2.35, "range")), Bar.of(Double.NaN))
                .group("B <&>", Bar.of(-0.5).withPaper(Stated.of(2, "one number")), Bar.stated(Stated.NONE), Bar.of(3))
                .svg();
        assertEquals(3, PlotHtml.count(svg, "<rect class=\"model\""), "NaN draws no bar");
        assertEquals(1, PlotHtml.count(svg, "<rect class=\"paper\""), "the paper's silence draws no bar");
        assertEquals(1, PlotHtml.count(svg, "<g class=\"paper\""), "a whisker over the stated range");
        assertEquals(1, PlotHtml.count(svg, "<path class=\"paper\""), "a diamond on the single stated number");
        assertTrue(svg.contains("1.67-2.35 (range)"), "the stated bar names its range and source");
        assertTrue(svg.contains("B &lt;&amp;&gt;") && !svg.contains("B <&>"), "labels are escaped");
        assertTrue(svg.contains(">-1<") || svg.contains(">-0.5<"), "a negative value extends the axis below 0: " + svg);
    }

    @Test
    void aLineBreaksWhereAPointIsMissingAndALogAxisNeedsPositiveX() {
        String svg = new LineChart("servers", true, "MOPS")
                .line("scheme", List.of(Point.at(1, 1), Point.at(2, 2), Point.at(4, Double.NaN), Point.at(8, 3), Point.at(16, 4)))
                .paper("scheme", 16, Stated.of(6.6, "§5.2"))
                .reference("paper: up to 11.8x", Stated.of(11.8, "§9.2"))
                .reference("paper: 43.3%-50.0%", new Stated(43.3, 50, "§V-B"))
                .svg();
        assertEquals(2, PlotHtml.count(svg, "<polyline"), "the saturated point splits the line in two");
        assertEquals(4, PlotHtml.modelMarks(svg));
        for (String tick : List.of(">1<", ">2<", ">4<", ">8<", ">16<")) {
            assertTrue(svg.contains(tick), "every doubling ticked: " + tick);
        }
        assertEquals(3, PlotHtml.count(svg, "stroke-dasharray"), "a dashed line at one number, two at a range's ends");
        assertTrue(svg.contains("paper: up to 11.8x") && svg.contains("paper: 43.3%-50.0%"));
        assertTrue(svg.contains("paper (stated"), "the legend names the paper's marker");
        assertThrows(IllegalArgumentException.class, () -> new LineChart("x", true, "y").line("l", List.of(Point.at(0, 1))));
        assertThrows(IllegalArgumentException.class, () -> new BarChart("x", "y", List.of("a", "b")).group("g", Bar.of(1)));
    }

    @Test
    void roundAxesStartAtZeroOrBelowForNegativeValues() {
        assertEquals(new Scale.Linear(0, 2, 0.5), Scale.Linear.covering(0, 1.95));
        assertEquals(new Scale.Linear(-20, 100, 20), Scale.Linear.covering(-9.9, 88.7));
        assertEquals(List.of(0.0, 2.5, 5.0, 7.5, 10.0, 12.5), Scale.Linear.covering(0, 10.5).ticks());
        assertEquals("0.25", Scale.label(0.25));
        assertEquals("16", Scale.label(16));
    }

    @Test
    void aPageIsOneFileWithAnSvgPerFigure(@TempDir Path dir) throws Exception {
        PlotPage page = new PlotPage("title", "intro").section("one")
                .figure(new BarChart("x", "y", List.of("s")).group("g", Bar.of(1)), "first")
                .figure(new LineChart("x", false, "y").line("l", List.of(Point.at(1, 1))), "second");
        Path written = page.write(dir.resolve("new/dir"));
        assertEquals(dir.resolve("new/dir/index.html"), written);
        PlotHtml html = PlotHtml.read(written.getParent());
        assertEquals(2, html.figures().size());
        assertEquals(page.figures(), html.figures().size());
        assertFalse(Files.readString(written).contains("<script"), "self-contained, nothing to run or fetch");
    }
}
