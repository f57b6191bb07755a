package dev.innet.lake.wire;

import java.util.Arrays;
import java.util.HexFormat;

/** An immutable byte string compared by content: keys and values of memcached messages. */
public final class ByteString {
    public static final ByteString EMPTY = new ByteString(new byte[0]);

    private final byte[] bytes;

    private ByteString(byte[] bytes) {
        this.bytes = bytes;
    }

    public static ByteString of(byte[] bytes) {
        return new ByteString(bytes.clone());
    }

    /** The UTF-8 bytes of {@code text}. */
    public static ByteString utf8(String text) {
        return new ByteString(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public int length() {
        return bytes.length;
    }

    public boolean isEmpty() {
        return bytes.length == 0;
    }

    public byte[] toArray() {
        return bytes.clone();
    }

    void copyTo(byte[] target, int offset) {
        System.arraycopy(bytes, 0, target, offset, bytes.length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ByteString other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return HexFormat.of().formatHex(bytes);
    }
}
