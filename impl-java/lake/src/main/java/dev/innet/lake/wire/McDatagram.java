package dev.innet.lake.wire;

/** One UDP payload to or from memcached: the frame header and one binary-protocol message. */
public record McDatagram(McFrame frame, McMessage message) { }
