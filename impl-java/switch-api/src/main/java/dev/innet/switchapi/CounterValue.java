package dev.innet.switchapi;

public record CounterValue(long packets, long bytes) { }
