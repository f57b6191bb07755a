package dev.innet.app.bench.plot;

/** A figure of a bench's page: a {@link BarChart} or a {@link LineChart}, drawn as one inline SVG. */
public sealed interface Chart permits BarChart, LineChart {
    String svg();
}
