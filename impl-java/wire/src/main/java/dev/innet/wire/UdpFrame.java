package dev.innet.wire;

import java.util.Arrays;
import java.util.Objects;

/**
 * One UDP datagram in one Ethernet II frame over IPv4 without options (docs/wire-format.md §1).
 * MACs are the low 48 bits of a long; IPv4 addresses are ints in network order; ports 0..65535.
 * Encoders write the fixed header values the format prescribes (TTL 64, DF, UDP checksum 0);
 * decoders check them in the documented order and report the first failure.
 */
public record UdpFrame(long dstMac, long srcMac, int srcIp, int dstIp, int srcPort, int dstPort, byte[] payload) {
    public static final int ETHERNET_HEADER = 14;
    public static final int IPV4_HEADER = 20;
    public static final int UDP_HEADER = 8;
    public static final int HEADERS = ETHERNET_HEADER + IPV4_HEADER + UDP_HEADER;
    public static final int ETHERTYPE_IPV4 = 0x0800;
    public static final int IP_PROTO_UDP = 17;
    /** Largest payload that fits an IPv4 total length field. */
    public static final int MAX_PAYLOAD = 0xffff - IPV4_HEADER - UDP_HEADER;

    private static final long MAC_MASK = 0xffff_ffff_ffffL;
    private static final int TTL = 64;
    private static final int FLAGS_DONT_FRAGMENT = 0x4000;

    public UdpFrame {
        Objects.requireNonNull(payload, "payload");
        if ((dstMac & ~MAC_MASK) != 0 || (srcMac & ~MAC_MASK) != 0) {
            throw new IllegalArgumentException("MAC addresses are 48 bits");
        }
        requirePort(srcPort);
        requirePort(dstPort);
        if (payload.length > MAX_PAYLOAD) {
            throw new IllegalArgumentException("UDP payload of " + payload.length + " bytes exceeds " + MAX_PAYLOAD);
        }
    }

    public byte[] encode() {
        byte[] out = new byte[HEADERS + payload.length];
        ByteCursor w = new ByteCursor(out);
        w.putU48(dstMac);
        w.putU48(srcMac);
        w.putU16(ETHERTYPE_IPV4);
        int ipStart = w.position();
        w.putU8(0x45); // version 4, IHL 5
        w.putU8(0);
        w.putU16(IPV4_HEADER + UDP_HEADER + payload.length);
        w.putU16(0); // identification
        w.putU16(FLAGS_DONT_FRAGMENT);
        w.putU8(TTL);
        w.putU8(IP_PROTO_UDP);
        int checksumAt = w.position();
        w.putU16(0);
        w.putU32(srcIp);
        w.putU32(dstIp);
        ByteCursor.putU16(out, checksumAt, Ipv4Checksum.compute(out, ipStart, IPV4_HEADER));
        w.putU16(srcPort);
        w.putU16(dstPort);
        w.putU16(UDP_HEADER + payload.length);
        w.putU16(0); // UDP checksum not computed (RFC 768 allows 0 over IPv4)
        w.putBytes(payload);
        return out;
    }

    public static UdpFrame decode(byte[] frame) throws WireException {
        return decode(frame, 0, frame.length);
    }

    public static UdpFrame decode(byte[] buf, int offset, int length) throws WireException {
        if (length < HEADERS) {
            throw new WireException(WireError.FRAME_TRUNCATED, length + " bytes, need at least " + HEADERS);
        }
        ByteCursor r = new ByteCursor(buf, offset, length);
        long dstMac = r.getU48();
        long srcMac = r.getU48();
        int etherType = r.getU16();
        int ipStart = r.position();
        int versionIhl = r.getU8();
        if (etherType != ETHERTYPE_IPV4 || (versionIhl >>> 4) != 4) {
            throw new WireException(WireError.NOT_IPV4,
                    String.format("EtherType 0x%04x, IP version %d", etherType, versionIhl >>> 4));
        }
        if ((versionIhl & 0xf) != 5) {
            throw new WireException(WireError.IP_OPTIONS, "IHL " + (versionIhl & 0xf));
        }
        r.getU8(); // DSCP/ECN: not interpreted
        int totalLength = r.getU16();
        r.getU16(); // identification
        int flagsFragment = r.getU16();
        r.getU8(); // TTL
        int protocol = r.getU8();
        r.getU16(); // checksum, verified over the whole header below
        int srcIp = r.getU32();
        int dstIp = r.getU32();
        if (totalLength > length - ETHERNET_HEADER) {
            throw new WireException(WireError.FRAME_TRUNCATED,
                    "IPv4 total length " + totalLength + " but only " + (length - ETHERNET_HEADER) + " bytes follow Ethernet");
        }
        if ((flagsFragment & 0x2000) != 0 || (flagsFragment & 0x1fff) != 0) {
            throw new WireException(WireError.IP_FRAGMENT, String.format("flags/fragment 0x%04x", flagsFragment));
        }
        if (Ipv4Checksum.compute(buf, ipStart, IPV4_HEADER) != 0) {
            throw new WireException(WireError.BAD_IP_CHECKSUM, "IPv4 header checksum does not verify");
        }
        if (protocol != IP_PROTO_UDP) {
            throw new WireException(WireError.NOT_UDP, "IP protocol " + protocol);
        }
        int srcPort = r.getU16();
        int dstPort = r.getU16();
        int udpLength = r.getU16();
        r.getU16(); // UDP checksum: 0 or unverified, per the format
        if (udpLength < UDP_HEADER || udpLength != totalLength - IPV4_HEADER) {
            throw new WireException(WireError.BAD_UDP_LENGTH,
                    "UDP length " + udpLength + " but IPv4 carries " + (totalLength - IPV4_HEADER));
        }
        byte[] payload = r.getBytes(udpLength - UDP_HEADER);
        return new UdpFrame(dstMac, srcMac, srcIp, dstIp, srcPort, dstPort, payload);
    }

    /** The frame with addresses and ports swapped, carrying a new payload: how replies are built. */
    public UdpFrame reply(byte[] replyPayload) {
        return new UdpFrame(srcMac, dstMac, dstIp, srcIp, dstPort, srcPort, replyPayload);
    }

    private static void requirePort(int port) {
        if (port < 0 || port > 0xffff) {
            throw new IllegalArgumentException("UDP port out of range: " + port);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UdpFrame f && dstMac == f.dstMac && srcMac == f.srcMac && srcIp == f.srcIp
                && dstIp == f.dstIp && srcPort == f.srcPort && dstPort == f.dstPort
                && Arrays.equals(payload, f.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(dstMac, srcMac, srcIp, dstIp, srcPort, dstPort, Arrays.hashCode(payload));
    }

    @Override
    public String toString() {
        return String.format("UdpFrame[%s:%d -> %s:%d, %d bytes]", RackAddressing.ipToString(srcIp), srcPort,
                RackAddressing.ipToString(dstIp), dstPort, payload.length);
    }
}
