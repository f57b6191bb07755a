package dev.innet.switchapi;

/** One copy of a multicast packet: output port and replication id (seen as egress_rid). */
public record Replica(int port, int rid) { }
