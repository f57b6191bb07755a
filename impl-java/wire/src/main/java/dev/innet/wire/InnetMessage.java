package dev.innet.wire;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The innet application header and its value (docs/wire-format.md §2): every protocol but LaKe
 * speaks it. Unsigned 32-bit fields ({@code reqId}, {@code seq}) are held in longs so comparisons
 * stay unsigned. Unknown ops are not a codec error: the protocol answers them with {@code BAD_OP}.
 */
public record InnetMessage(int op, int flags, int status, long reqId, byte[] key, long seq, byte[] ext, byte[] value) {
    public static final int MAGIC = 0xA1;
    public static final int HEADER_BYTES = 32;
    public static final int KEY_BYTES = 16;
    public static final int MAX_EXT_BYTES = 64;
    /** Largest value a switch may cache. */
    public static final int MAX_CACHED_VALUE_BYTES = 128;
    /**
     * Largest value the format carries at all: with the largest extension (64 bytes) the IPv4 packet is
     * exactly 1500 bytes (20 IPv4 + 8 UDP + 32 header + 64 + 1376), the Ethernet MTU, so no message is
     * ever fragmented. YCSB's default record (10 fields of 100 bytes) fits (docs/ycsb.md).
     */
    public static final int MAX_VALUE_BYTES = 1376;
    /** Values travel padded to whole 8-byte words, the unit the P4 parsers extract. */
    public static final int VALUE_WORD_BYTES = 8;
    /** Replies carry the request's op with this bit set. */
    public static final int REPLY_BIT = 0x80;

    private static final long U32_MASK = 0xffff_ffffL;

    public InnetMessage {
        requireByte("op", op);
        requireByte("flags", flags);
        requireByte("status", status);
        requireU32("reqId", reqId);
        requireU32("seq", seq);
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(ext, "ext");
        Objects.requireNonNull(value, "value");
        if (key.length != KEY_BYTES) {
            throw new IllegalArgumentException("keys are exactly 16 bytes, got " + key.length);
        }
        if (ext.length % 4 != 0 || ext.length > MAX_EXT_BYTES) {
            throw new IllegalArgumentException("extension must be a multiple of 4 bytes and at most 64, got " + ext.length);
        }
        if (value.length > MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("value of " + value.length + " bytes exceeds " + MAX_VALUE_BYTES);
        }
    }

    /** A message without extension. */
    public static InnetMessage of(int op, long reqId, byte[] key, long seq, byte[] value) {
        return new InnetMessage(op, 0, 0, reqId, key, seq, new byte[0], value);
    }

    public boolean isReply() {
        return (op & REPLY_BIT) != 0;
    }

    public int encodedLength() {
        return HEADER_BYTES + ext.length + paddedLength(value.length);
    }

    public static int paddedLength(int valueLength) {
        return (valueLength + VALUE_WORD_BYTES - 1) / VALUE_WORD_BYTES * VALUE_WORD_BYTES;
    }

    public byte[] encode() {
        byte[] out = new byte[encodedLength()];
        ByteCursor w = new ByteCursor(out);
        w.putU8(MAGIC);
        w.putU8(op);
        w.putU8(flags);
        w.putU8(status);
        w.putU32((int) reqId);
        w.putBytes(key);
        w.putU32((int) seq);
        w.putU16(value.length);
        w.putU16(ext.length);
        w.putBytes(ext);
        w.putBytes(value); // padding bytes are already zero
        return out;
    }

    public static InnetMessage decode(byte[] bytes) throws WireException {
        return decode(bytes, 0, bytes.length);
    }

    /** Checks in the order of docs/wire-format.md §2.1 and reports the first failure. */
    public static InnetMessage decode(byte[] buf, int offset, int length) throws WireException {
        if (length < HEADER_BYTES) {
            throw new WireException(WireError.HEADER_TRUNCATED, length + " bytes, need " + HEADER_BYTES);
        }
        ByteCursor r = new ByteCursor(buf, offset, length);
        int magic = r.getU8();
        if (magic != MAGIC) {
            throw new WireException(WireError.BAD_MAGIC, String.format("magic 0x%02x, expected 0x%02x", magic, MAGIC));
        }
        int op = r.getU8();
        int flags = r.getU8();
        int status = r.getU8();
        long reqId = r.getU32() & U32_MASK;
        byte[] key = r.getBytes(KEY_BYTES);
        long seq = r.getU32() & U32_MASK;
        int valueLength = r.getU16();
        int extLength = r.getU16();
        if (extLength % 4 != 0 || extLength > MAX_EXT_BYTES) {
            throw new WireException(WireError.BAD_EXTLEN, "extlen " + extLength);
        }
        if (valueLength > MAX_VALUE_BYTES) {
            throw new WireException(WireError.VALUE_TOO_LARGE, "vallen " + valueLength);
        }
        int padded = paddedLength(valueLength);
        int needed = HEADER_BYTES + extLength + padded;
        if (length < needed) {
            throw new WireException(WireError.VALUE_TRUNCATED, length + " bytes, need " + needed);
        }
        byte[] ext = r.getBytes(extLength);
        byte[] value = r.getBytes(valueLength);
        for (int i = valueLength; i < padded; i++) {
            if (r.getU8() != 0) {
                throw new WireException(WireError.NONZERO_PADDING, "value padding byte " + (i - valueLength) + " is not zero");
            }
        }
        if (length > needed) {
            throw new WireException(WireError.TRAILING_BYTES, (length - needed) + " bytes after the value");
        }
        return new InnetMessage(op, flags, status, reqId, key, seq, ext, value);
    }

    /** A reply to this request: op with the reply bit, same request id and key. */
    public InnetMessage reply(int replyStatus, long replySeq, byte[] replyValue) {
        return new InnetMessage(op | REPLY_BIT, 0, replyStatus, reqId, key, replySeq, new byte[0], replyValue);
    }

    public InnetMessage withFlags(int newFlags) {
        return new InnetMessage(op, newFlags, status, reqId, key, seq, ext, value);
    }

    /** Pads a short application key with zeros to the fixed 16 bytes (left-aligned). */
    public static byte[] key(byte[] applicationKey) {
        if (applicationKey.length > KEY_BYTES) {
            throw new IllegalArgumentException("application keys are at most 16 bytes, got " + applicationKey.length);
        }
        return Arrays.copyOf(applicationKey, KEY_BYTES);
    }

    public static byte[] key(String applicationKey) {
        return key(applicationKey.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public String keyHex() {
        return HexFormat.of().formatHex(key);
    }

    private static void requireByte(String name, int v) {
        if (v < 0 || v > 0xff) {
            throw new IllegalArgumentException(name + " is one byte, got " + v);
        }
    }

    private static void requireU32(String name, long v) {
        if (v < 0 || v > U32_MASK) {
            throw new IllegalArgumentException(name + " is an unsigned 32-bit field, got " + v);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InnetMessage m && op == m.op && flags == m.flags && status == m.status && reqId == m.reqId
                && seq == m.seq && Arrays.equals(key, m.key) && Arrays.equals(ext, m.ext) && Arrays.equals(value, m.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(op, flags, status, reqId, seq, Arrays.hashCode(key), Arrays.hashCode(ext), Arrays.hashCode(value));
    }

    @Override
    public String toString() {
        return String.format("InnetMessage[op=0x%02x flags=0x%02x status=%d reqId=%d key=%s seq=%d ext=%dB value=%dB]",
                op, flags, status, reqId, keyHex(), seq, ext.length, value.length);
    }
}
