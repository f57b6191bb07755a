package dev.innet.sim;

import dev.innet.wire.UdpFrame;

/**
 * A host's network interface: one link to a switch port. Frames are real Ethernet/IPv4/UDP bytes
 * (docs/wire-format.md §1); the network neither parses nor repairs them, the switch decides where they go.
 * Sending never blocks and never reports loss: like UDP, a frame may be dropped, duplicated, delayed or
 * reordered, and protocol code must cope.
 */
public interface Network {
    /** Largest frame a host may send: an untagged Ethernet frame with the standard 1500-byte MTU. */
    int MAX_FRAME_BYTES = 1514;
    /** An Ethernet header is the least a frame can be. */
    int MIN_FRAME_BYTES = 14;

    /** Sends a frame out of this host's link. The bytes are copied; the caller may reuse the array. */
    void send(byte[] frame);

    /** Encodes and sends a UDP frame. */
    default void send(UdpFrame frame) {
        send(frame.encode());
    }

    /** Checks the size rule every implementation enforces, so a bug fails the same way in sim and live. */
    static void requireSendable(byte[] frame) {
        if (frame == null) {
            throw new IllegalArgumentException("frame is null");
        }
        if (frame.length < MIN_FRAME_BYTES || frame.length > MAX_FRAME_BYTES) {
            throw new IllegalArgumentException("frame of " + frame.length + " bytes outside "
                    + MIN_FRAME_BYTES + ".." + MAX_FRAME_BYTES);
        }
    }
}
