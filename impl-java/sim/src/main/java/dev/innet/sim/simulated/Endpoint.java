package dev.innet.sim.simulated;

/** Where a channel ends: a host's single network interface, or one port of a switch. */
sealed interface Endpoint permits Simulation.HostSlot, Simulation.SwitchPort {
}
