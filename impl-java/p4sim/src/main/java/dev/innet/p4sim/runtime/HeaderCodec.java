package dev.innet.p4sim.runtime;

/**
 * Moves one header type (or a struct of fixed-width fields, for {@code lookahead}) between packet
 * bytes and frame slots. Headers are byte-aligned (as bmv2 requires); fields inside them may have any
 * width and alignment. A header may have one varbit field: its slot holds the current length in bits
 * and the words after it the value; the fields after it move with that length.
 */
public final class HeaderCodec {
    public final String name;
    /** Slot offset of each field relative to the header's validity slot (or the struct's first slot). */
    private final int[] slotOffsets;
    private final int[] widths;
    private final int[] bitOffsets;
    /** Bits of the fixed-width fields (a varbit field counts 0). */
    public final int bits;
    public final int bytes;
    /** Whether slot 0 is a validity bit (a header) rather than the first field (a struct). */
    private final boolean hasValidity;
    /** Index of the varbit field, or -1; its maximum width in bits. */
    public final int varbitIndex;
    public final int varbitMax;
    /**
     * Straight-line code for this header's fields (docs/p4sim.md, Benchmark); null for a header with a
     * varbit field, whose later fields move with the varbit's length and so have no constant offset.
     */
    private final FieldPacker fast;

    public HeaderCodec(String name, int[] slotOffsets, int[] widths) {
        this(name, slotOffsets, widths, true, -1, 0);
    }

    /** {@code widths[varbitIndex]} is ignored: the varbit field's length comes with each packet. */
    public HeaderCodec(String name, int[] slotOffsets, int[] widths, boolean hasValidity, int varbitIndex, int varbitMax) {
        this.name = name;
        this.slotOffsets = slotOffsets;
        this.widths = widths;
        this.hasValidity = hasValidity;
        this.varbitIndex = varbitIndex;
        this.varbitMax = varbitMax;
        this.bitOffsets = new int[widths.length];
        int b = 0;
        for (int i = 0; i < widths.length; i++) {
            bitOffsets[i] = b;
            if (i != varbitIndex) {
                b += widths[i];
            }
        }
        this.bits = b;
        this.bytes = b / 8;
        this.fast = varbitIndex < 0 ? FieldPacker.of(bitOffsets, widths, slotOffsets) : null;
    }

    /** Reads the header at bit {@code bitBase} of {@code src} into slots at {@code base}; marks it valid. */
    public void extract(byte[] src, int bitBase, long[] s, int base) {
        if (fast != null && (bitBase & 7) == 0) {
            fast.unpack(src, bitBase >>> 3, s, base);
        } else {
            // a header after a field of a width that is not whole bytes, or with a varbit: the general loop
            for (int i = 0; i < widths.length; i++) {
                BitIO.readField(src, bitBase + bitOffsets[i], widths[i], s, base + slotOffsets[i]);
            }
        }
        if (hasValidity) {
            s[base] = 1;
        }
    }

    /**
     * The straight-line code for byte-aligned positions (the compiler's templates call it directly);
     * null for a header with a varbit field.
     */
    public FieldPacker packer() {
        return fast;
    }

    /** Writes the header's fields from slots at {@code base} into {@code dst} at byte {@code at}. */
    public void emit(long[] s, int base, byte[] dst, int at) {
        if (fast != null) {
            fast.pack(s, base, dst, at);
            return;
        }
        int bitBase = at * 8;
        for (int i = 0; i < widths.length; i++) {
            BitIO.writeField(dst, bitBase + bitOffsets[i], widths[i], s, base + slotOffsets[i]);
        }
    }

    // ---------------------------------------------------------------- headers with a varbit field

    /** Bytes the header takes in the packet with its varbit field as it is stored at {@code base}. */
    public int bytesWithVarbit(long[] s, int base) {
        return (bits + (int) s[base + slotOffsets[varbitIndex]]) / 8;
    }

    /** Extracts the header with a varbit field of {@code vbits} bits (the caller checked the packet is long enough). */
    public void extractVarbit(byte[] src, int bitBase, int vbits, long[] s, int base) {
        int vslot = base + slotOffsets[varbitIndex];
        for (int i = 0; i < widths.length; i++) {
            int at = bitBase + bitOffsets[i] + (i > varbitIndex ? vbits : 0);
            if (i == varbitIndex) {
                s[vslot] = vbits;
                java.util.Arrays.fill(s, vslot + 1, vslot + 1 + Wide.words(varbitMax), 0L);
                if (vbits > 0) {
                    BitIO.readWide(src, at, vbits, s, vslot + 1);
                }
            } else {
                BitIO.readField(src, at, widths[i], s, base + slotOffsets[i]);
            }
        }
        s[base] = 1;
    }

    /** Emits the header with its varbit field's current length; returns the bytes written. */
    public int emitVarbit(long[] s, int base, byte[] dst, int at) {
        int vslot = base + slotOffsets[varbitIndex];
        int vbits = (int) s[vslot];
        int bitBase = at * 8;
        for (int i = 0; i < widths.length; i++) {
            int off = bitBase + bitOffsets[i] + (i > varbitIndex ? vbits : 0);
            if (i == varbitIndex) {
                if (vbits > 0) {
                    BitIO.writeWide(dst, off, vbits, s, vslot + 1);
                }
            } else {
                BitIO.writeField(dst, off, widths[i], s, base + slotOffsets[i]);
            }
        }
        return (bits + vbits) / 8;
    }
}
