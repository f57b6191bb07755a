package dev.innet.rack;

import dev.innet.wire.InnetMessage;
import dev.innet.wire.UdpFrame;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every frame that entered or left the switch, counted per port, direction and innet operation code
 * (docs/wire-format.md; {@link #NOT_INNET} for frames that are not innet messages), with their bytes. A
 * benchmark reads from it what each host did (the requests a server handled, the reports it sent) without
 * knowing any protocol. Observation only: the frames pass unchanged.
 */
public final class SwitchTraffic {
    /** The operation code counted for a frame that does not decode as an innet message. */
    public static final int NOT_INNET = -1;

    /** Frames and bytes of one (port, direction, op). */
    public static final class Tally {
        public long frames;
        public long bytes;
    }

    private final Map<Integer, Map<Integer, Tally>> toSwitch = new TreeMap<>();
    private final Map<Integer, Map<Integer, Tally>> fromSwitch = new TreeMap<>();

    void sawIngress(int port, byte[] frame, int length) {
        count(toSwitch, port, frame, length);
    }

    void sawEgress(int port, byte[] frame, int length) {
        count(fromSwitch, port, frame, length);
    }

    private static void count(Map<Integer, Map<Integer, Tally>> side, int port, byte[] frame, int length) {
        Tally t = side.computeIfAbsent(port, p -> new TreeMap<>()).computeIfAbsent(opOf(frame, length), o -> new Tally());
        t.frames++;
        t.bytes += length;
    }

    /** The innet op code of a frame: the byte after the magic at the start of the UDP payload. */
    static int opOf(byte[] frame, int length) {
        int at = UdpFrame.HEADERS;
        if (length < at + 2 || (frame[at] & 0xff) != InnetMessage.MAGIC) {
            return NOT_INNET;
        }
        return frame[at + 1] & 0xff;
    }

    /** Frames the host on {@code port} sent to the switch, by op (a copy). */
    public Map<Integer, Tally> sentBy(int port) {
        return copy(toSwitch.get(port));
    }

    /** Frames the switch sent to the host on {@code port}, by op (a copy). */
    public Map<Integer, Tally> receivedBy(int port) {
        return copy(fromSwitch.get(port));
    }

    private static Map<Integer, Tally> copy(Map<Integer, Tally> m) {
        Map<Integer, Tally> out = new TreeMap<>();
        if (m != null) {
            m.forEach((op, t) -> {
                Tally c = new Tally();
                c.frames = t.frames;
                c.bytes = t.bytes;
                out.put(op, c);
            });
        }
        return out;
    }
}
