package dev.innet.pegasus.wire;

import dev.innet.kv.PacketPrologue;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.UdpFrame;
import java.util.function.Predicate;

/**
 * A decoded Pegasus packet: frame, innet message and extension. Every Pegasus node's {@code onPacket}
 * starts with {@link #decodeOrDrop}: malformed frames, messages without the 8-byte extension and
 * frames not addressed to the node are counted and dropped, never thrown.
 */
public record PegasusPacket(UdpFrame frame, InnetMessage message, PegasusExt ext) {

    /** The packet, or null when it was dropped ({@code onDrop} has then run once). */
    public static PegasusPacket decodeOrDrop(byte[] bytes, Predicate<UdpFrame> addressedToMe, Runnable onDrop) {
        InnetPacket packet = PacketPrologue.decodeOrDrop(bytes, addressedToMe, onDrop);
        if (packet == null) {
            return null;
        }
        try {
            return new PegasusPacket(packet.frame(), packet.message(), PegasusExt.decode(packet.message().ext()));
        } catch (PegasusExt.BadExtension e) {
            onDrop.run();
            return null;
        }
    }

    /** A Pegasus message with its extension. */
    public static InnetMessage message(int op, int flags, int status, long reqId, byte[] key, long version,
            PegasusExt ext, byte[] value) {
        return new InnetMessage(op, flags, status, reqId, key, version, ext.encode(), value);
    }
}
