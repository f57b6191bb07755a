package dev.innet.p4sim.v1model;

import java.util.function.LongSupplier;

/**
 * Instance settings. {@code cpuPort}: packets sent there go to packet-in subscribers and packet-out
 * frames arrive from there (-1: no CPU port). {@code maxPassesPerPacket} bounds resubmit plus
 * recirculate passes started by one received packet. {@code clockMicros} feeds the timestamp fields
 * (inject simulated time; the default is a clock stuck at 0, so nothing depends on wall time).
 */
public record SwitchConfig(long randomSeed, int cpuPort, int maxPacketBytes, int maxPassesPerPacket, LongSupplier clockMicros) {
    public static final int DROP_PORT = 511;

    public static SwitchConfig defaults() {
        return new SwitchConfig(1, 255, 9216, 16, () -> 0L);
    }

    public SwitchConfig withSeed(long seed) {
        return new SwitchConfig(seed, cpuPort, maxPacketBytes, maxPassesPerPacket, clockMicros);
    }

    public SwitchConfig withCpuPort(int port) {
        return new SwitchConfig(randomSeed, port, maxPacketBytes, maxPassesPerPacket, clockMicros);
    }

    public SwitchConfig withClock(LongSupplier clock) {
        return new SwitchConfig(randomSeed, cpuPort, maxPacketBytes, maxPassesPerPacket, clock);
    }
}
