package dev.innet.app.bench.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** What the benches' plot tests read of a written page: its figures and what each one draws. */
public record PlotHtml(String html, List<String> figures) {
    /** Reads {@code dir/index.html}, which must have one {@code <svg>} per {@code <figure>}. */
    public static PlotHtml read(Path dir) throws IOException {
        Path page = dir.resolve("index.html");
        assertTrue(Files.isRegularFile(page), "no " + page);
        String html = Files.readString(page);
        List<String> figures = Arrays.stream(html.split("<figure>")).skip(1).toList();
        assertEquals(figures.size(), count(html, "<svg"), "an <svg> per figure");
        return new PlotHtml(html, figures);
    }

    /** The one figure whose caption or labels contain {@code text}. */
    public String figure(String text) {
        List<String> matching = figures.stream().filter(f -> f.contains(text)).toList();
        assertEquals(1, matching.size(), "figures containing '" + text + "'");
        return matching.get(0);
    }

    /** The model's bars ({@code <rect class="model"}) and points ({@code <circle class="model"}) in a figure. */
    public static int modelMarks(String figure) {
        return count(figure, "<rect class=\"model\"") + count(figure, "<circle class=\"model\"");
    }

    public static int count(String text, String needle) {
        int n = 0;
        for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length())) {
            n++;
        }
        return n;
    }
}
