package dev.innet.p4sim.v1model;

/**
 * Receives packets leaving the switch. {@code buf} is the switch's reusable buffer: it is valid only
 * during the call, so a sink that keeps the packet must copy {@code buf[off, off+len)}.
 */
@FunctionalInterface
public interface PacketSink {
    void emit(int port, byte[] buf, int off, int len);
}
