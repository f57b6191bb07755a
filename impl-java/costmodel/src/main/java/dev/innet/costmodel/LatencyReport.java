package dev.innet.costmodel;

import java.util.Arrays;

/**
 * What one simulated load level gave: offered and completed operations per second, the latency
 * distribution (seconds) of the measured operations, and how busy each station was.
 */
public record LatencyReport(double offeredOpsPerSecond, double achievedOpsPerSecond, double mean, double p50,
        double p95, double p99, double max, double[] stationUtilisation) {

    /** The report of {@code latencies} (unsorted; sorted in place) completed over {@code spanSeconds}. */
    static LatencyReport of(double offered, double[] latencies, double spanSeconds, double[] utilisation) {
        Arrays.sort(latencies);
        double sum = 0;
        for (double l : latencies) {
            sum += l;
        }
        return new LatencyReport(offered, latencies.length / spanSeconds, sum / latencies.length,
                percentile(latencies, 0.50), percentile(latencies, 0.95), percentile(latencies, 0.99),
                latencies[latencies.length - 1], utilisation);
    }

    /** The nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** The latency at quantile {@code q} among those reported (0.5, 0.95, 0.99; 1 = max; anything else: mean). */
    public double at(double q) {
        if (q == 0.5) {
            return p50;
        } else if (q == 0.95) {
            return p95;
        } else if (q == 0.99) {
            return p99;
        } else if (q == 1.0) {
            return max;
        }
        return mean;
    }
}
