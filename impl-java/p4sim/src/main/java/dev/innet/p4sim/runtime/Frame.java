package dev.innet.p4sim.runtime;

/**
 * The mutable state of one packet's trip through a compiled pipeline. One instance per switch is
 * reused for every packet: all program state lives in {@link #s} (slots assigned at compile time),
 * the packet in {@link #in} and the deparser output in {@link #out}, so the fast path allocates nothing.
 */
public final class Frame {
    /** Control-flow signals raised by statements; blocks stop at the first non-zero value. */
    public static final int NORMAL = 0;
    public static final int RETURN = 1;
    public static final int EXIT = 2;
    public static final int REJECT = 3;
    /** {@code break} and {@code continue}: only ever seen by the enclosing loop, which clears them. */
    public static final int BREAK = 4;
    public static final int CONTINUE = 5;

    public final long[] s;
    public byte[] in;
    public int inLen;
    /** Parser position in bits from the start of {@link #in}. */
    public int cursorBits;
    public byte[] out;
    public int outLen;
    public int flow;
    /** Error member index set when the parser rejects (verify, short packet, no select match). */
    public int parserError;
    /**
     * The packet's payload (the bytes after the parsed headers) while verifyChecksum and computeChecksum
     * run, for the {@code *_with_payload} checksums: {@code payload[payloadOff, payloadOff + payloadLen)}.
     */
    public byte[] payload;
    public int payloadOff;
    public int payloadLen;

    public Frame(int slots, int maxPacket) {
        this.s = new long[slots];
        this.in = new byte[maxPacket];
        this.out = new byte[maxPacket + 8192];
    }

    /** Makes sure the output buffer can take {@code extra} more bytes. */
    public void ensureOut(int extra) {
        if (outLen + extra > out.length) {
            byte[] bigger = new byte[Math.max(out.length * 2, outLen + extra)];
            System.arraycopy(out, 0, bigger, 0, outLen);
            out = bigger;
        }
    }
}
