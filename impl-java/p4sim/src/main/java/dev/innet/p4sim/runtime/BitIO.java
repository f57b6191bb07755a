package dev.innet.p4sim.runtime;

/** Big-endian bit-level reads and writes of fields in packet bytes (network order, MSB first). */
public final class BitIO {
    private BitIO() { }

    /** Reads {@code width} (1..64) bits starting at bit {@code bitOff} of {@code b}. */
    public static long read(byte[] b, int bitOff, int width) {
        if ((bitOff & 7) == 0 && (width & 7) == 0) {
            int i = bitOff >>> 3;
            long v = 0;
            for (int k = 0; k < (width >>> 3); k++) {
                v = (v << 8) | (b[i + k] & 0xFFL);
            }
            return v;
        }
        long v = 0;
        int pos = bitOff;
        int remaining = width;
        while (remaining > 0) {
            int bitInByte = pos & 7;
            int avail = 8 - bitInByte;
            int take = Math.min(avail, remaining);
            long bits = ((b[pos >>> 3] & 0xFF) >>> (avail - take)) & ((1 << take) - 1);
            v = (v << take) | bits;
            pos += take;
            remaining -= take;
        }
        return v;
    }

    /** Writes the low {@code width} (1..64) bits of {@code v} at bit {@code bitOff} of {@code b}. */
    public static void write(byte[] b, int bitOff, int width, long v) {
        if ((bitOff & 7) == 0 && (width & 7) == 0) {
            int i = bitOff >>> 3;
            for (int k = (width >>> 3) - 1; k >= 0; k--) {
                b[i + k] = (byte) v;
                v >>>= 8;
            }
            return;
        }
        int pos = bitOff + width;
        int remaining = width;
        while (remaining > 0) {
            int end = pos; // exclusive
            int bitInByte = (end - 1) & 7; // index of the last bit within its byte, 0 = MSB
            int take = Math.min(bitInByte + 1, remaining);
            int shift = 7 - bitInByte;
            int mask = ((1 << take) - 1) << shift;
            int idx = (end - 1) >>> 3;
            b[idx] = (byte) ((b[idx] & ~mask) | (((int) v << shift) & mask));
            v >>>= take;
            pos -= take;
            remaining -= take;
        }
    }

    /** Reads a field of any width into {@code words} little-endian 64-bit words at {@code dst[off..]}. */
    public static void readWide(byte[] b, int bitOff, int width, long[] dst, int off) {
        int n = Wide.words(width);
        for (int k = 0; k < n; k++) {
            int lowBit = 64 * k;
            int w = Math.min(64, width - lowBit);
            dst[off + k] = read(b, bitOff + width - lowBit - w, w);
        }
    }

    public static void writeWide(byte[] b, int bitOff, int width, long[] src, int off) {
        int n = Wide.words(width);
        for (int k = 0; k < n; k++) {
            int lowBit = 64 * k;
            int w = Math.min(64, width - lowBit);
            write(b, bitOff + width - lowBit - w, w, src[off + k]);
        }
    }

    public static long mask(int width) {
        return width >= 64 ? -1L : (1L << width) - 1;
    }

    /** Sign-extends the low {@code width} bits of {@code v}. */
    public static long signExtend(long v, int width) {
        int sh = 64 - width;
        return (v << sh) >> sh;
    }
}
