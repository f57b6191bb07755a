package dev.innet.p4sim.runtime;

/**
 * The v1model hash and checksum algorithms over a byte string (fields concatenated most significant
 * bit first, zero-padded to whole bytes): crc32 (IEEE 802.3, reflected, init and xor-out 0xFFFFFFFF),
 * crc16 (CRC-16/ARC: poly 0x8005 reflected, init 0, no xor-out), csum16 (RFC 1071 ones'-complement
 * checksum, complemented), xor16 (XOR of 16-bit words) and identity (the first 8 bytes as an integer).
 */
public final class Hashes {
    public enum Algorithm { CRC32, CRC16, CSUM16, XOR16, IDENTITY }

    private static final int[] CRC32_TABLE = new int[256];
    private static final int[] CRC16_TABLE = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ 0xEDB88320 : c >>> 1;
            }
            CRC32_TABLE[i] = c;
            int d = i;
            for (int k = 0; k < 8; k++) {
                d = (d & 1) != 0 ? (d >>> 1) ^ 0xA001 : d >>> 1;
            }
            CRC16_TABLE[i] = d;
        }
    }

    private Hashes() { }

    public static long compute(Algorithm a, byte[] b, int len) {
        return switch (a) {
            case CRC32 -> crc32(b, len);
            case CRC16 -> crc16(b, len);
            case CSUM16 -> csum16(b, len);
            case XOR16 -> xor16(b, len);
            case IDENTITY -> identity(b, len);
        };
    }

    public static long crc32(byte[] b, int len) {
        int c = 0xFFFFFFFF;
        for (int i = 0; i < len; i++) {
            c = CRC32_TABLE[(c ^ b[i]) & 0xFF] ^ (c >>> 8);
        }
        return (~c) & 0xFFFFFFFFL;
    }

    public static long crc16(byte[] b, int len) {
        int c = 0;
        for (int i = 0; i < len; i++) {
            c = CRC16_TABLE[(c ^ b[i]) & 0xFF] ^ (c >>> 8);
        }
        return c & 0xFFFF;
    }

    private static final java.lang.invoke.VarHandle BE_INT =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.BIG_ENDIAN);

    public static long csum16(byte[] b, int len) {
        long sum = 0;
        int i = 0;
        // four bytes at a time: the two 16-bit words of a big-endian int, added separately
        for (; i + 4 <= len; i += 4) {
            int w = (int) BE_INT.get(b, i);
            sum += (w >>> 16) + (w & 0xFFFF);
        }
        for (; i < len; i += 2) {
            int hi = b[i] & 0xFF;
            int lo = i + 1 < len ? b[i + 1] & 0xFF : 0;
            sum += (hi << 8) | lo;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (~sum) & 0xFFFF;
    }

    public static long xor16(byte[] b, int len) {
        int x = 0;
        for (int i = 0; i < len; i += 2) {
            int hi = b[i] & 0xFF;
            int lo = i + 1 < len ? b[i + 1] & 0xFF : 0;
            x ^= (hi << 8) | lo;
        }
        return x & 0xFFFF;
    }

    /**
     * The first (up to) 8 bytes as a big-endian integer, as bmv2's {@code identity} (calculations.cpp)
     * takes them; the caller's result width then keeps the low bits.
     */
    public static long identity(byte[] b, int len) {
        long v = 0;
        for (int i = 0; i < Math.min(8, len); i++) {
            v = (v << 8) | (b[i] & 0xFF);
        }
        return v;
    }
}
