package dev.innet.p4sim.runtime;

/**
 * Arithmetic on values wider than 64 bits, stored as little-endian 64-bit words inside the frame's
 * slot array. Every operation keeps the top word masked to the value's width.
 */
public final class Wide {
    private Wide() { }

    public static int words(int width) {
        return (width + 63) >>> 6;
    }

    public static void maskTop(long[] a, int off, int width) {
        int n = words(width);
        int topBits = width - 64 * (n - 1);
        a[off + n - 1] &= BitIO.mask(topBits);
    }

    public static boolean equal(long[] a, int ao, long[] b, int bo, int n) {
        for (int i = 0; i < n; i++) {
            if (a[ao + i] != b[bo + i]) {
                return false;
            }
        }
        return true;
    }

    /** Unsigned comparison; returns <0, 0, >0. */
    public static int compareUnsigned(long[] a, int ao, long[] b, int bo, int n) {
        for (int i = n - 1; i >= 0; i--) {
            int c = Long.compareUnsigned(a[ao + i], b[bo + i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    public static void add(long[] a, int ao, long[] b, int bo, long[] d, int dof, int n) {
        long carry = 0;
        for (int i = 0; i < n; i++) {
            long x = a[ao + i];
            long s = x + b[bo + i];
            long c1 = Long.compareUnsigned(s, x) < 0 ? 1 : 0;
            long s2 = s + carry;
            long c2 = Long.compareUnsigned(s2, s) < 0 ? 1 : 0;
            d[dof + i] = s2;
            carry = c1 | c2;
        }
    }

    public static void sub(long[] a, int ao, long[] b, int bo, long[] d, int dof, int n) {
        long borrow = 0;
        for (int i = 0; i < n; i++) {
            long x = a[ao + i];
            long y = b[bo + i];
            long r = x - y - borrow;
            borrow = (Long.compareUnsigned(x, y) < 0 || (borrow == 1 && x == y)) ? 1 : 0;
            d[dof + i] = r;
        }
    }

    /**
     * Logical shift left by {@code k} bits of an n-word value. Works in place (d == a, same offset):
     * words are written from the top down, each reading only words at or below it.
     */
    public static void shl(long[] a, int ao, int k, long[] d, int dof, int n) {
        int ws = k >>> 6;
        int bs = k & 63;
        for (int i = n - 1; i >= 0; i--) {
            int src = i - ws;
            long v = 0;
            if (src >= 0) {
                v = a[ao + src] << bs;
                if (bs != 0 && src - 1 >= 0) {
                    v |= a[ao + src - 1] >>> (64 - bs);
                }
            }
            d[dof + i] = v;
        }
    }

    /** Logical shift right by {@code k} bits; in place allowed (words written bottom up). */
    public static void shr(long[] a, int ao, int k, long[] d, int dof, int n) {
        int ws = k >>> 6;
        int bs = k & 63;
        for (int i = 0; i < n; i++) {
            int src = i + ws;
            long v = 0;
            if (src < n) {
                v = a[ao + src] >>> bs;
                if (bs != 0 && src + 1 < n) {
                    v |= a[ao + src + 1] << (64 - bs);
                }
            }
            d[dof + i] = v;
        }
    }

    /** Extracts bits [lo, lo+width) of a wide value as a long (width <= 64). */
    public static long bits(long[] a, int ao, int n, int lo, int width) {
        int w = lo >>> 6;
        int b = lo & 63;
        long v = a[ao + w] >>> b;
        if (b != 0 && w + 1 < n) {
            v |= a[ao + w + 1] << (64 - b);
        }
        return v & BitIO.mask(width);
    }

    /** ORs the low {@code width} bits of {@code v} into bit position {@code lo} of a wide value (bits assumed clear). */
    public static void orBits(long[] d, int dof, int n, int lo, int width, long v) {
        v &= BitIO.mask(width);
        int w = lo >>> 6;
        int b = lo & 63;
        d[dof + w] |= v << b;
        if (b != 0 && w + 1 < n && width > 64 - b) {
            d[dof + w + 1] |= v >>> (64 - b);
        }
    }

    /** Clears bits [lo, lo+width) of a wide value. */
    public static void clearBits(long[] d, int dof, int n, int lo, int width) {
        for (int i = 0; i < width; i++) {
            int bit = lo + i;
            d[dof + (bit >>> 6)] &= ~(1L << (bit & 63));
        }
    }
}
