package dev.innet.kv.spec;

import dev.innet.kv.KvOp;
import dev.innet.protocol.RackPorts;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecReplay.ReplayException;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.WireException;
import java.util.ArrayList;
import java.util.List;

/** What the key-value family's spec replays check of the frames a switch emits. */
public final class ReplayFrames {
    private ReplayFrames() {}

    /** The frame as a packet; a malformed one fails the replay (the implementation emitted it). */
    public static InnetPacket decode(byte[] frame) {
        try {
            return InnetPacket.decode(frame);
        } catch (WireException e) {
            throw new ReplayException("the implementation emitted a malformed frame: " + e.getMessage());
        }
    }

    /** Fails the replay with {@code what} unless the switch emitted exactly one frame, towards {@code host}. */
    public static void expectOnly(List<ReplayTarget.Emitted> out, int host, String what) {
        if (out.size() != 1 || out.get(0).port() != RackPorts.portOf(host)) {
            List<String> got = new ArrayList<>();
            for (ReplayTarget.Emitted e : out) {
                got.add("port " + e.port() + ": " + KvOp.name(decode(e.frame()).message().op()));
            }
            throw new ReplayException(what + "; the switch emitted " + got);
        }
    }
}
