package dev.innet.wire;

/** RFC 791/1071 ones'-complement header checksum. Computing it over a header that already holds a
 *  correct checksum yields 0, which is how decoders verify. */
public final class Ipv4Checksum {
    private Ipv4Checksum() {}

    public static int compute(byte[] buf, int offset, int length) {
        int sum = 0;
        for (int i = 0; i + 1 < length; i += 2) {
            sum += ((buf[offset + i] & 0xff) << 8) | (buf[offset + i + 1] & 0xff);
        }
        if ((length & 1) != 0) {
            sum += (buf[offset + length - 1] & 0xff) << 8;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return ~sum & 0xffff;
    }
}
