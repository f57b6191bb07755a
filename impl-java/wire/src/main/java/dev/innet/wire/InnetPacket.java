package dev.innet.wire;

/**
 * A frame and the innet message it carries, decoded together: what every innet node receives. Which
 * addresses and ports a node accepts is the node's decision (docs/wire-format.md §1), not the codec's.
 */
public record InnetPacket(UdpFrame frame, InnetMessage message) {

    /** Decodes the frame, then its UDP payload as an innet message; the first failing check is reported. */
    public static InnetPacket decode(byte[] bytes) throws WireException {
        UdpFrame frame = UdpFrame.decode(bytes);
        return new InnetPacket(frame, InnetMessage.decode(frame.payload()));
    }
}
