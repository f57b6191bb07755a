package dev.innet.p4sim.v1model;

import java.util.function.LongSupplier;

/**
 * Instance settings. {@code specialize}: compile every combinator node to its own class (fast
 * packets, ~100 ms to instantiate a large program) or to plain closures (instantiation in
 * milliseconds, packets about 2.5 times slower); both behave identically. {@code cpuPort}: packets sent there go to packet-in subscribers and packet-out
 * frames arrive from there (-1: no CPU port). {@code maxPassesPerPacket} bounds resubmit plus
 * recirculate passes started by one received packet. {@code clockMicros} feeds the timestamp fields
 * (inject simulated time; the default is a clock stuck at 0, so nothing depends on wall time).
 * {@code coverage}: compile coverage probes in (docs/p4sim.md, "Coverage"); without it there are none.
 */
public record SwitchConfig(long randomSeed, int cpuPort, int maxPacketBytes, int maxPassesPerPacket, LongSupplier clockMicros,
                           boolean specialize, boolean coverage) {
    public static final int DROP_PORT = 511;

    public static SwitchConfig defaults() {
        return new SwitchConfig(1, 255, 9216, 16, () -> 0L, true, false);
    }

    public SwitchConfig withSeed(long seed) {
        return new SwitchConfig(seed, cpuPort, maxPacketBytes, maxPassesPerPacket, clockMicros, specialize, coverage);
    }

    public SwitchConfig withCpuPort(int port) {
        return new SwitchConfig(randomSeed, port, maxPacketBytes, maxPassesPerPacket, clockMicros, specialize, coverage);
    }

    public SwitchConfig withSpecialization(boolean on) {
        return new SwitchConfig(randomSeed, cpuPort, maxPacketBytes, maxPassesPerPacket, clockMicros, on, coverage);
    }

    /** Count table hits and misses, actions run and branch outcomes ({@link P4Switch#coverage}); off by default. */
    public SwitchConfig withCoverage(boolean on) {
        return new SwitchConfig(randomSeed, cpuPort, maxPacketBytes, maxPassesPerPacket, clockMicros, specialize, on);
    }

    public SwitchConfig withMaxPassesPerPacket(int passes) {
        return new SwitchConfig(randomSeed, cpuPort, maxPacketBytes, passes, clockMicros, specialize, coverage);
    }

    public SwitchConfig withClock(LongSupplier clock) {
        return new SwitchConfig(randomSeed, cpuPort, maxPacketBytes, maxPassesPerPacket, clock, specialize, coverage);
    }
}
