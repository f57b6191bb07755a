package dev.innet.app.bench.plot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A bench's figures as one self-contained HTML page (no script, no stylesheet or image to fetch): a title,
 * a line on the method, and sections of figures, each an inline SVG with its caption. The caption is where
 * a figure says what the paper states for it, and where it states nothing.
 */
public final class PlotPage {
    private final String title;
    private final StringBuilder body = new StringBuilder();
    private int figures;

    /**
     * @param title the page's heading (and the browser's title)
     * @param intro one paragraph under it: where the method and constants are described
     */
    public PlotPage(String title, String intro) {
        this.title = title;
        body.append("<h1>").append(Frame.escape(title)).append("</h1><p>").append(Frame.escape(intro)).append("</p>");
    }

    public PlotPage section(String heading) {
        body.append("<h2>").append(Frame.escape(heading)).append("</h2>");
        return this;
    }

    public PlotPage figure(Chart chart, String caption) {
        body.append("<figure>").append(chart.svg()).append("<figcaption>").append(Frame.escape(caption))
                .append("</figcaption></figure>");
        figures++;
        return this;
    }

    /** How many figures the page has: one {@code <svg>} each. */
    public int figures() {
        return figures;
    }

    public String html() {
        return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + Frame.escape(title) + "</title><style>"
                + "body{font-family:sans-serif} figure{display:inline-block;margin:8px;vertical-align:top}"
                + " figcaption{font-size:13px;max-width:600px}</style></head><body>" + body + "</body></html>\n";
    }

    /** Writes {@code dir/index.html} (creating {@code dir}) and returns its path. */
    public Path write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path page = dir.resolve("index.html");
        Files.writeString(page, html(), StandardCharsets.UTF_8);
        return page;
    }
}
