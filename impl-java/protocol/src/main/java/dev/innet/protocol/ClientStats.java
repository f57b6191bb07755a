package dev.innet.protocol;

/**
 * Where a client host reports each operation it ended, for the run's report (operations, switch-answered
 * ones, throughput over time). The rack's key-value workload and a protocol's own application client
 * ({@link RackNodes#applicationClient}) report to the same counts.
 */
public interface ClientStats {
    /**
     * @param r            how the operation ended ({@code fromSwitch}: the switch answered or committed it)
     * @param latencyNanos from invocation to the end
     * @param read         whether it only observed (a get, a stat)
     * @param nowNanos     when it ended
     */
    void record(KvResult r, long latencyNanos, boolean read, long nowNanos);
}
