package dev.innet.switchapi;

/**
 * A two-rate three-color meter's configuration, in bmv2's units: rates in packets (or bytes) per
 * microsecond, bursts in packets (or bytes).
 */
public record MeterConfig(double committedRate, long committedBurst, double peakRate, long peakBurst) {
    public MeterConfig {
        if (!(committedRate >= 0) || !(peakRate >= 0) || committedBurst < 0 || peakBurst < 0) {
            throw new ControlException("meter rates and bursts must be non-negative");
        }
    }
}
