package dev.innet.visibility.wire;

import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;

/** Framing of visibility messages between rack hosts (docs/wire-format.md §1 addressing). */
public final class VisFrames {
    private VisFrames() {}

    /** {@code message} from host {@code from} (port {@code fromPort}) to host {@code to} on port {@code toPort}. */
    public static UdpFrame frame(int from, int fromPort, int to, int toPort, InnetMessage message) {
        return new UdpFrame(RackAddressing.hostMac(to), RackAddressing.hostMac(from), RackAddressing.hostIp(from),
                RackAddressing.hostIp(to), fromPort, toPort, message.encode());
    }

    /** A message from a server's port 5011 to another server's port 5011. */
    public static UdpFrame serverToServer(int from, int to, InnetMessage message) {
        return frame(from, VisOp.PORT, to, VisOp.PORT, message);
    }

    /** A message of the visibility layer with its extension. */
    public static InnetMessage message(int op, int flags, int status, long reqId, byte[] key, long ts, VisExt ext,
            byte[] value) {
        return new InnetMessage(op, flags, status, reqId, key, ts, ext.encode(), value);
    }
}
