package dev.innet.rack;

import dev.innet.wire.InnetMessage;
import dev.innet.wire.UdpFrame;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

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

    /** Per switch port: the UDP (port, address) endpoints its host sent from and to, and was sent to. */
    private final Map<Integer, Set<Integer>> sourcePortsIn = new TreeMap<>();
    private final Map<Integer, Set<Integer>> destinationAddressesIn = new TreeMap<>();
    private final Map<Integer, Set<Integer>> destinationPortsOut = new TreeMap<>();

    void sawIngress(int port, byte[] frame, int length) {
        count(toSwitch, port, frame, length);
        if (isUdp(frame, length)) {
            sourcePortsIn.computeIfAbsent(port, p -> new TreeSet<>()).add(u16(frame, SRC_PORT_AT));
            destinationAddressesIn.computeIfAbsent(port, p -> new TreeSet<>()).add(u32(frame, DST_IP_AT));
        }
    }

    void sawEgress(int port, byte[] frame, int length) {
        count(fromSwitch, port, frame, length);
        if (isUdp(frame, length)) {
            destinationPortsOut.computeIfAbsent(port, p -> new TreeSet<>()).add(u16(frame, DST_PORT_AT));
        }
    }

    private static final int PROTOCOL_AT = 23;
    private static final int DST_IP_AT = 30;
    private static final int SRC_PORT_AT = 34;
    private static final int DST_PORT_AT = 36;

    private static boolean isUdp(byte[] frame, int length) {
        return length >= UdpFrame.HEADERS && (frame[12] & 0xff) == 0x08 && frame[13] == 0 && frame[PROTOCOL_AT] == 17;
    }

    private static int u16(byte[] b, int at) {
        return ((b[at] & 0xff) << 8) | (b[at + 1] & 0xff);
    }

    private static int u32(byte[] b, int at) {
        return (u16(b, at) << 16) | u16(b, at + 2);
    }

    /**
     * The UDP source ports of the frames the host on {@code port} sent: a live host sends each from a
     * socket bound to its source port, so each must be one its role binds (Protocol.hostPorts).
     */
    public Set<Integer> udpSourcePortsSentBy(int port) {
        return Set.copyOf(sourcePortsIn.getOrDefault(port, Set.of()));
    }

    /** The IPv4 destinations of the frames the host on {@code port} sent (a live kernel keeps a frame to itself). */
    public Set<Integer> destinationAddressesSentBy(int port) {
        return Set.copyOf(destinationAddressesIn.getOrDefault(port, Set.of()));
    }

    /** The UDP destination ports of the frames the switch sent to the host on {@code port} (a live kernel drops unbound ones). */
    public Set<Integer> udpDestinationPortsReceivedBy(int port) {
        return Set.copyOf(destinationPortsOut.getOrDefault(port, Set.of()));
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
