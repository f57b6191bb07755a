package dev.innet.app.bench;

import java.util.Locale;

/**
 * A figure a paper states in its text: one number ({@code low == high}) or a range, and where the paper
 * says so. The benches print it beside the model's figure and their plots draw it; {@link #NONE} is a
 * cell the paper gives no number for.
 */
public record Stated(double low, double high, String source) {
    /** The paper gives no number here. */
    public static final Stated NONE = new Stated(Double.NaN, Double.NaN, "");

    public static Stated of(double v, String source) {
        return new Stated(v, v, source);
    }

    public boolean known() {
        return !Double.isNaN(low);
    }

    /** A range rather than one number. */
    public boolean range() {
        return known() && low != high;
    }

    public double mid() {
        return (low + high) / 2;
    }

    public String text() {
        if (!known()) {
            return "-";
        }
        return low == high ? String.format(Locale.ROOT, "%.2f", low) : String.format(Locale.ROOT, "%.2f-%.2f", low, high);
    }
}
