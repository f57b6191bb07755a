package dev.innet.visibility.wire;

import java.nio.ByteBuffer;

/**
 * The metadata of the log-structured key-value store (Table I: "key --> logID"): which data node holds
 * the entry and at which log position. 16 bytes on the wire: host (u32), zero (u32), position (u64).
 */
public record LogAddress(int dataNode, long position) {
    public static final int BYTES = 16;

    public byte[] encode() {
        return ByteBuffer.allocate(BYTES).putInt(dataNode).putInt(0).putLong(position).array();
    }

    /** The address, or null when the bytes are not one. */
    public static LogAddress decodeOrNull(byte[] bytes) {
        if (bytes.length != BYTES) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int host = b.getInt();
        if (b.getInt() != 0 || host < 1 || host > 253) {
            return null;
        }
        long position = b.getLong();
        return position < 0 ? null : new LogAddress(host, position);
    }

    /** The address as the switch holds it: word 0 is host and zero, word 1 the position. */
    public static LogAddress fromSwitchWords(long word0, long word1) {
        return new LogAddress((int) (word0 >>> 32), word1);
    }
}
