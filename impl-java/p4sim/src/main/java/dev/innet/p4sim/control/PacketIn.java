package dev.innet.p4sim.control;

/** A packet the data plane sent to the CPU port. */
public record PacketIn(byte[] frame) { }
