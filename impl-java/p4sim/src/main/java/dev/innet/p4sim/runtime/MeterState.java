package dev.innet.p4sim.runtime;

/**
 * One two-rate three-color marker (RFC 2698, color-blind), as bmv2 implements v1model meters: rates
 * in units (packets or bytes) per microsecond, bursts in units; both buckets start full. An
 * unconfigured meter marks everything GREEN, as in bmv2. Time comes from the switch's injected clock.
 */
public final class MeterState {
    public static final int GREEN = 0;
    public static final int YELLOW = 1;
    public static final int RED = 2;

    private boolean configured;
    private double committedRate;
    private long committedBurst;
    private double peakRate;
    private long peakBurst;
    private double committedTokens;
    private double peakTokens;
    private long lastMicros;

    public void configure(double cir, long cbs, double pir, long pbs, long nowMicros) {
        configured = true;
        committedRate = cir;
        committedBurst = cbs;
        peakRate = pir;
        peakBurst = pbs;
        committedTokens = cbs;
        peakTokens = pbs;
        lastMicros = nowMicros;
    }

    public boolean configured() {
        return configured;
    }

    public double committedRate() {
        return committedRate;
    }

    public long committedBurst() {
        return committedBurst;
    }

    public double peakRate() {
        return peakRate;
    }

    public long peakBurst() {
        return peakBurst;
    }

    /** Marks a packet of {@code units} (1 for packet meters, its length for byte meters). */
    public int execute(long units, long nowMicros) {
        if (!configured) {
            return GREEN;
        }
        long elapsed = Math.max(0, nowMicros - lastMicros);
        lastMicros = Math.max(lastMicros, nowMicros);
        committedTokens = Math.min(committedBurst, committedTokens + committedRate * elapsed);
        peakTokens = Math.min(peakBurst, peakTokens + peakRate * elapsed);
        if (peakTokens < units) {
            return RED;
        }
        peakTokens -= units;
        if (committedTokens < units) {
            return YELLOW;
        }
        committedTokens -= units;
        return GREEN;
    }
}
