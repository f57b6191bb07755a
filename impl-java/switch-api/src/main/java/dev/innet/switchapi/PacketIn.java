package dev.innet.switchapi;

/** A packet the data plane sent to the CPU port. */
public record PacketIn(byte[] frame) { }
