package dev.innet.kv;

import dev.innet.wire.InnetPacket;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;
import java.util.function.Predicate;

/**
 * The first lines of every node's {@code onPacket}: decode the frame and its innet message, and drop
 * what is malformed or not addressed to this node, counting the drop. Without a decodable header there
 * is no request id to answer, and answering traffic that is not ours would turn a switch-program bug
 * into a second one, so both are dropped silently (docs/wire-format.md).
 */
public final class PacketPrologue {
    private PacketPrologue() {}

    /**
     * The decoded packet, or null when it was dropped: then {@code onDrop} has run once.
     *
     * @param addressedToMe whether the node accepts a frame with these addresses and ports
     */
    public static InnetPacket decodeOrDrop(byte[] bytes, Predicate<UdpFrame> addressedToMe, Runnable onDrop) {
        InnetPacket packet;
        try {
            packet = InnetPacket.decode(bytes);
        } catch (WireException e) {
            onDrop.run();
            return null;
        }
        if (!addressedToMe.test(packet.frame())) {
            onDrop.run();
            return null;
        }
        return packet;
    }
}
