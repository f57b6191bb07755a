package dev.innet.p4sim.runtime;

/**
 * Moves one header type between packet bytes and frame slots. Headers are byte-aligned (as bmv2
 * requires); fields inside them may have any width and alignment.
 */
public final class HeaderCodec {
    public final String name;
    /** Slot offset of each field relative to the header's validity slot. */
    private final int[] slotOffsets;
    private final int[] widths;
    private final int[] bitOffsets;
    public final int bits;
    public final int bytes;
    /** Every field is a whole number of bytes of at most 64 bits: the common case, with a fast path. */
    private final boolean byteFields;

    public HeaderCodec(String name, int[] slotOffsets, int[] widths) {
        this.name = name;
        this.slotOffsets = slotOffsets;
        this.widths = widths;
        this.bitOffsets = new int[widths.length];
        int b = 0;
        for (int i = 0; i < widths.length; i++) {
            bitOffsets[i] = b;
            b += widths[i];
        }
        this.bits = b;
        this.bytes = b / 8;
        boolean aligned = true;
        for (int w : widths) {
            aligned &= w % 8 == 0 && w <= 64;
        }
        this.byteFields = aligned;
    }

    /** Reads the header at byte {@code at} of {@code src} into slots at {@code base}; marks it valid. */
    public void extract(byte[] src, int at, long[] s, int base) {
        if (byteFields) {
            int p = at;
            for (int i = 0; i < widths.length; i++) {
                long v = 0;
                for (int k = widths[i] >>> 3; k > 0; k--) {
                    v = (v << 8) | (src[p++] & 0xFFL);
                }
                s[base + slotOffsets[i]] = v;
            }
            s[base] = 1;
            return;
        }
        int bitBase = at * 8;
        for (int i = 0; i < widths.length; i++) {
            int w = widths[i];
            if (w <= 64) {
                s[base + slotOffsets[i]] = BitIO.read(src, bitBase + bitOffsets[i], w);
            } else {
                BitIO.readWide(src, bitBase + bitOffsets[i], w, s, base + slotOffsets[i]);
            }
        }
        s[base] = 1;
    }

    /** Writes the header's fields from slots at {@code base} into {@code dst} at byte {@code at}. */
    public void emit(long[] s, int base, byte[] dst, int at) {
        if (byteFields) {
            int p = at;
            for (int i = 0; i < widths.length; i++) {
                long v = s[base + slotOffsets[i]];
                int n = widths[i] >>> 3;
                for (int k = n - 1; k >= 0; k--) {
                    dst[p + k] = (byte) v;
                    v >>>= 8;
                }
                p += n;
            }
            return;
        }
        int bitBase = at * 8;
        for (int i = 0; i < widths.length; i++) {
            int w = widths[i];
            if (w <= 64) {
                BitIO.write(dst, bitBase + bitOffsets[i], w, s[base + slotOffsets[i]]);
            } else {
                BitIO.writeWide(dst, bitBase + bitOffsets[i], w, s, base + slotOffsets[i]);
            }
        }
    }
}
