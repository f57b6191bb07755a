package dev.innet.p4sim.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Big-endian bit-level reads and writes of fields in packet bytes (network order, MSB first). */
public final class BitIO {
    private BitIO() { }

    /** Reads {@code width} (1..64) bits starting at bit {@code bitOff} of {@code b}. */
    public static long read(byte[] b, int bitOff, int width) {
        int first = bitOff >>> 3;
        int lead = bitOff & 7;
        int nbytes = (lead + width + 7) >>> 3;
        if (nbytes <= 8) {
            // the field lies within one 64-bit big-endian window of nbytes bytes
            long v = 0;
            for (int k = 0; k < nbytes; k++) {
                v = (v << 8) | (b[first + k] & 0xFFL);
            }
            int trail = nbytes * 8 - lead - width;
            return (v >>> trail) & mask(width);
        }
        // 9 bytes: an unaligned field of 57..64 bits
        long hi = read(b, bitOff, width - 8);
        long lo = read(b, bitOff + width - 8, 8);
        return (hi << 8) | lo;
    }

    /** Writes the low {@code width} (1..64) bits of {@code v} at bit {@code bitOff} of {@code b}. */
    public static void write(byte[] b, int bitOff, int width, long v) {
        int first = bitOff >>> 3;
        int lead = bitOff & 7;
        int nbytes = (lead + width + 7) >>> 3;
        if (nbytes <= 8) {
            int trail = nbytes * 8 - lead - width;
            if (lead == 0 && trail == 0) {
                for (int k = nbytes - 1; k >= 0; k--) {
                    b[first + k] = (byte) v;
                    v >>>= 8;
                }
                return;
            }
            long window = 0;
            for (int k = 0; k < nbytes; k++) {
                window = (window << 8) | (b[first + k] & 0xFFL);
            }
            long m = mask(width) << trail;
            window = (window & ~m) | ((v << trail) & m);
            for (int k = nbytes - 1; k >= 0; k--) {
                b[first + k] = (byte) window;
                window >>>= 8;
            }
            return;
        }
        write(b, bitOff, width - 8, v >>> 8);
        write(b, bitOff + width - 8, 8, v);
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

    private static final VarHandle BE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle BE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle BE_SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

    /** Writes a field of any width stored at {@code s[slot..]}; byte-aligned fields are stored whole. */
    public static void writeField(byte[] b, int bitOff, int width, long[] s, int slot) {
        if (((bitOff | width) & 7) != 0) {
            if (width <= 64) {
                write(b, bitOff, width, s[slot]);
            } else {
                writeWide(b, bitOff, width, s, slot);
            }
            return;
        }
        int p = bitOff >>> 3;
        switch (width) {
            case 8 -> b[p] = (byte) s[slot];
            case 16 -> BE_SHORT.set(b, p, (short) s[slot]);
            case 32 -> BE_INT.set(b, p, (int) s[slot]);
            case 64 -> BE_LONG.set(b, p, s[slot]);
            default -> {
                if ((width & 63) == 0) {
                    // whole 64-bit words, most significant word first in the packet
                    int n = width >>> 6;
                    for (int k = 0; k < n; k++) {
                        BE_LONG.set(b, p + 8 * k, s[slot + n - 1 - k]);
                    }
                } else if (width <= 64) {
                    write(b, bitOff, width, s[slot]);
                } else {
                    writeWide(b, bitOff, width, s, slot);
                }
            }
        }
    }

    /** Reads a field of any width into {@code s[slot..]}; byte-aligned fields are loaded whole. */
    public static void readField(byte[] b, int bitOff, int width, long[] s, int slot) {
        if (((bitOff | width) & 7) != 0) {
            if (width <= 64) {
                s[slot] = read(b, bitOff, width);
            } else {
                readWide(b, bitOff, width, s, slot);
            }
            return;
        }
        int p = bitOff >>> 3;
        switch (width) {
            case 8 -> s[slot] = b[p] & 0xFFL;
            case 16 -> s[slot] = (short) BE_SHORT.get(b, p) & 0xFFFFL;
            case 32 -> s[slot] = (int) BE_INT.get(b, p) & 0xFFFFFFFFL;
            case 64 -> s[slot] = (long) BE_LONG.get(b, p);
            default -> {
                if ((width & 63) == 0) {
                    int n = width >>> 6;
                    for (int k = 0; k < n; k++) {
                        s[slot + n - 1 - k] = (long) BE_LONG.get(b, p + 8 * k);
                    }
                } else if (width <= 64) {
                    s[slot] = read(b, bitOff, width);
                } else {
                    readWide(b, bitOff, width, s, slot);
                }
            }
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
