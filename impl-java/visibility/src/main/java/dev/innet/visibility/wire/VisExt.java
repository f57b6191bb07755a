package dev.innet.visibility.wire;

import java.nio.ByteBuffer;

/**
 * The 8-byte extension every visibility message carries (§IV-A 1: "the hash index, the fingerprint of
 * the key"): a 16-bit index into the switch's table, 16 zero bits, a 32-bit fingerprint.
 */
public record VisExt(int index, long fingerprint) {
    public static final int BYTES = 8;

    public VisExt {
        if (index < 0 || index > 0xffff) {
            throw new IllegalArgumentException("hash index is 16 bits: " + index);
        }
        if (fingerprint < 0 || fingerprint > 0xffff_ffffL) {
            throw new IllegalArgumentException("fingerprint is 32 bits: " + fingerprint);
        }
    }

    public byte[] encode() {
        return ByteBuffer.allocate(BYTES).putShort((short) index).putShort((short) 0).putInt((int) fingerprint).array();
    }

    /** The extension, or null when the bytes are not one (wrong length or non-zero reserved bits). */
    public static VisExt decodeOrNull(byte[] ext) {
        if (ext.length != BYTES) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(ext);
        int index = b.getShort() & 0xffff;
        if (b.getShort() != 0) {
            return null;
        }
        return new VisExt(index, b.getInt() & 0xffff_ffffL);
    }
}
