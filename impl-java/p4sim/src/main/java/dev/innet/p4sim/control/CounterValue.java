package dev.innet.p4sim.control;

public record CounterValue(long packets, long bytes) { }
