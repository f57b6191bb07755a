package dev.innet.app.bench.plot;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/** Where a value falls along an axis (0 at its start, 1 at its end), and the values it labels. */
interface Scale {
    double fraction(double value);

    List<Double> ticks();

    /** A tick's label: as few decimals as the value needs. */
    static String label(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        String s = String.format(Locale.ROOT, "%.3f", value);
        return s.replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    /**
     * From 0 (or a round minimum below it, for values that go negative) to a round maximum, ticked every round
     * step (1, 2, 2.5 or 5 times a power of ten), about five steps: the paper figures' throughput and latency
     * axes start at 0.
     */
    record Linear(double min, double max, double step) implements Scale {
        /** The axis over all of {@code values} (and 0). */
        static Linear covering(List<Double> values) {
            return covering(values.stream().mapToDouble(Double::doubleValue).min().orElse(0),
                    values.stream().mapToDouble(Double::doubleValue).max().orElse(0));
        }

        static Linear covering(double smallest, double largest) {
            double low = Math.min(0, smallest);
            double high = Math.max(0, largest);
            if (!(high - low > 0) || Double.isInfinite(high - low)) {
                return new Linear(0, 1, 0.2);
            }
            double raw = (high - low) / 5;
            double power = Math.pow(10, Math.floor(Math.log10(raw)));
            double step = 10 * power;
            for (double m : new double[] {1, 2, 2.5, 5}) {
                if (m * power >= raw) {
                    step = m * power;
                    break;
                }
            }
            double min = low < 0 ? -Math.ceil(-low / step - 1e-9) * step : 0;
            return new Linear(min, Math.ceil(high / step - 1e-9) * step, step);
        }

        @Override
        public double fraction(double value) {
            return (value - min) / (max - min);
        }

        @Override
        public List<Double> ticks() {
            List<Double> ticks = new ArrayList<>();
            for (int i = 0; min + i * step <= max + step * 1e-9; i++) {
                double tick = min + i * step;
                ticks.add(Math.abs(tick) < step * 1e-9 ? 0 : tick);
            }
            return ticks;
        }
    }

    /**
     * Logarithmic over the values drawn, each of them ticked: for counts that double (servers, directory
     * slots, outstanding operations), which the papers plot evenly spaced. The smallest and largest stand a
     * little in from the ends, off the y axis.
     */
    record Logarithmic(TreeSet<Double> values) implements Scale {
        private static final double INSET = 0.04;

        @Override
        public double fraction(double value) {
            double low = Math.log(values.first());
            double high = Math.log(values.last());
            return high == low ? 0.5 : INSET + (1 - 2 * INSET) * (Math.log(value) - low) / (high - low);
        }

        @Override
        public List<Double> ticks() {
            return List.copyOf(values);
        }
    }
}
