package dev.innet.lake.wire;

/**
 * memcached's 8-byte UDP frame header: request id (echoed in the response), sequence number and
 * datagram count of the message, and a reserved 0. Every field is 16 bits.
 */
public record McFrame(int requestId, int sequence, int datagrams) {
    public static final int BYTES = 8;

    public McFrame {
        requireU16("requestId", requestId);
        requireU16("sequence", sequence);
        requireU16("datagrams", datagrams);
    }

    /** The frame of a message that fits one datagram. */
    public static McFrame single(int requestId) {
        return new McFrame(requestId, 0, 1);
    }

    static void requireU16(String name, int v) {
        if (v < 0 || v > 0xffff) {
            throw new IllegalArgumentException(name + " " + v + " is not a 16-bit value");
        }
    }
}
