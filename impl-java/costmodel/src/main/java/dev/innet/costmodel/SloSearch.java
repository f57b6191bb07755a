package dev.innet.costmodel;

/**
 * The highest offered load whose latency at a quantile stays within a bound (the "throughput under an SLO"
 * of NetCache §7 and similar evaluations): bisection between 0 and the saturation throughput, each probe a
 * {@link DiscreteEventSimulator} run with the same seed.
 */
public final class SloSearch {
    private SloSearch() {}

    /** The result: the load found, the report at that load, and how many probes it took. */
    public record Result(double opsPerSecond, LatencyReport report, int probes) {}

    /**
     * @param quantile 0.5, 0.95, 0.99 (or any other value for the mean)
     * @param boundSeconds the latency the quantile must not exceed
     * @param relativePrecision stop when the bracket is narrower than this fraction of saturation
     */
    public static Result maxThroughput(QueueingNetwork net, double quantile, double boundSeconds, int warmupOps,
            int measuredOps, long seed, double relativePrecision) {
        double saturation = Saturation.of(net).opsPerSecond();
        DiscreteEventSimulator des = new DiscreteEventSimulator(net);
        double lo = 0;
        double hi = saturation;
        LatencyReport best = null;
        int probes = 0;
        while (hi - lo > relativePrecision * saturation) {
            double mid = (lo + hi) / 2;
            LatencyReport r = des.run(mid, warmupOps, measuredOps, seed);
            probes++;
            if (r.at(quantile) <= boundSeconds) {
                lo = mid;
                best = r;
            } else {
                hi = mid;
            }
        }
        return new Result(lo, best, probes);
    }
}
