package dev.innet.sim.simulated;

/** The cable between a host and a switch port: one channel each way. */
public record HostLink(int hostNumber, SimSwitch sw, int switchPort, Channel toSwitch, Channel fromSwitch) {
}
