package dev.innet.costmodel;

import java.util.Arrays;
import java.util.function.Predicate;

/**
 * What a closed-loop run gave: the completed operations per second at that number of outstanding
 * operations, each measured operation's class and latency (seconds, to its reply), and how busy each
 * station was. Latencies can be reported for a subset of the classes (e.g. only the writes of a mix).
 */
public record ClosedLoopReport(QueueingNetwork network, int outstanding, double achievedOpsPerSecond,
        int[] operationClasses, double[] latencies, double[] stationUtilisation) {

    /** The latency report of the measured operations whose class name {@code selects} accepts. */
    public LatencyReport latencyOf(Predicate<String> selects) {
        double[] chosen = new double[latencies.length];
        int n = 0;
        for (int i = 0; i < latencies.length; i++) {
            if (selects.test(network.classes().get(operationClasses[i]).name())) {
                chosen[n++] = latencies[i];
            }
        }
        if (n == 0) {
            throw new IllegalArgumentException("no measured operation is of a selected class");
        }
        return LatencyReport.of(achievedOpsPerSecond, Arrays.copyOf(chosen, n), 1, stationUtilisation);
    }

    /** Every measured operation's latency. */
    public LatencyReport latency() {
        return latencyOf(name -> true);
    }
}
