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
    /** Straight-line code for this header's fields (docs/p4sim.md, Benchmark). */
    private final FieldPacker fast;

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
        this.fast = FieldPacker.of(bitOffsets, widths, slotOffsets);
    }

    /** Reads the header at bit {@code bitBase} of {@code src} into slots at {@code base}; marks it valid. */
    public void extract(byte[] src, int bitBase, long[] s, int base) {
        if ((bitBase & 7) == 0) {
            fast.unpack(src, bitBase >>> 3, s, base);
        } else {
            // a header after a field of a width that is not whole bytes: the general loop
            for (int i = 0; i < widths.length; i++) {
                BitIO.readField(src, bitBase + bitOffsets[i], widths[i], s, base + slotOffsets[i]);
            }
        }
        s[base] = 1;
    }

    /** The straight-line code for byte-aligned positions (the compiler's templates call it directly). */
    public FieldPacker packer() {
        return fast;
    }

    /** Writes the header's fields from slots at {@code base} into {@code dst} at byte {@code at}. */
    public void emit(long[] s, int base, byte[] dst, int at) {
        fast.pack(s, base, dst, at);
    }
}
