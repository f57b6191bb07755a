package dev.innet.wire;

/** Big-endian reads and writes over a byte array window; callers check lengths before reading. */
final class ByteCursor {
    private final byte[] buf;
    private final int end;
    private int pos;

    ByteCursor(byte[] buf) {
        this(buf, 0, buf.length);
    }

    ByteCursor(byte[] buf, int offset, int length) {
        this.buf = buf;
        this.pos = offset;
        this.end = offset + length;
    }

    int position() {
        return pos;
    }

    int remaining() {
        return end - pos;
    }

    int getU8() {
        check(1);
        return buf[pos++] & 0xff;
    }

    int getU16() {
        return (getU8() << 8) | getU8();
    }

    int getU32() {
        return (getU16() << 16) | getU16();
    }

    long getU48() {
        return ((long) getU16() << 32) | (getU32() & 0xffff_ffffL);
    }

    byte[] getBytes(int n) {
        check(n);
        byte[] out = new byte[n];
        System.arraycopy(buf, pos, out, 0, n);
        pos += n;
        return out;
    }

    void putU8(int v) {
        check(1);
        buf[pos++] = (byte) v;
    }

    void putU16(int v) {
        putU8(v >>> 8);
        putU8(v);
    }

    void putU32(int v) {
        putU16(v >>> 16);
        putU16(v);
    }

    void putU48(long v) {
        putU16((int) (v >>> 32));
        putU32((int) v);
    }

    void putBytes(byte[] b) {
        check(b.length);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
    }

    static void putU16(byte[] buf, int at, int v) {
        buf[at] = (byte) (v >>> 8);
        buf[at + 1] = (byte) v;
    }

    private void check(int n) {
        if (n < 0 || pos + n > end) {
            throw new IndexOutOfBoundsException("cursor at " + pos + " needs " + n + " bytes, window ends at " + end);
        }
    }
}
