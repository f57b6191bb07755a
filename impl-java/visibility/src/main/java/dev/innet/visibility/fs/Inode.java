package dev.innet.visibility.fs;

import dev.innet.visibility.wire.IndexRecord;
import dev.innet.visibility.wire.LogAddress;
import dev.innet.wire.InnetMessage;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A file's inode as the file-system namespace makes it visible (Table I: "pathName --> inode"): where the
 * file's data is (the log address of the entry that wrote it), the path (so a client recognises an entry
 * of another path that shares the switch slot and fingerprint, §III-B 2), the size, and the version: the
 * request that wrote it (client host and request id), which is what a stat reports as "which write". 48
 * bytes of metadata: address (16), path (16), size (u32), writer host (u32), request id (u32), zero (u32).
 */
public record Inode(LogAddress address, byte[] path, int size, int writerHost, long requestId) {
    public static final int TAIL_BYTES = InnetMessage.KEY_BYTES + 16;
    public static final int BYTES = LogAddress.BYTES + TAIL_BYTES;

    public static byte[] tail(byte[] path, int size, int writerHost, long requestId) {
        return ByteBuffer.allocate(TAIL_BYTES).put(path).putInt(size).putInt(writerHost).putInt((int) requestId)
                .putInt(0).array();
    }

    public byte[] encode() {
        return IndexRecord.metadataOf(address, tail(path, size, writerHost, requestId));
    }

    /** Whether a tail (the metadata after the address) is an inode's. */
    static boolean validTail(byte[] tail) {
        if (tail.length != TAIL_BYTES) {
            return false;
        }
        ByteBuffer b = ByteBuffer.wrap(tail, InnetMessage.KEY_BYTES, 16);
        b.getInt();
        int host = b.getInt();
        b.getInt();
        return host >= 1 && host <= 253 && b.getInt() == 0;
    }

    /** The inode, or null when the metadata is not one. */
    public static Inode decodeOrNull(byte[] metadata) {
        byte[] tail = IndexRecord.tailOrNull(metadata);
        if (tail == null || !validTail(tail)) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(tail);
        byte[] path = new byte[InnetMessage.KEY_BYTES];
        b.get(path);
        int size = b.getInt();
        int host = b.getInt();
        long requestId = b.getInt() & 0xffff_ffffL;
        return new Inode(LogAddress.decodeOrNull(Arrays.copyOf(metadata, LogAddress.BYTES)), path, size, host, requestId);
    }

    /**
     * What a stat reports, as the history records it (docs/history-format.md §3.2): size, writer host and
     * request id, 12 bytes. A create or write records the same of itself when invoked.
     */
    public static byte[] observation(int size, int writerHost, long requestId) {
        return ByteBuffer.allocate(12).putInt(size).putInt(writerHost).putInt((int) requestId).array();
    }

    public byte[] observation() {
        return observation(size, writerHost, requestId);
    }

    public boolean describes(byte[] otherPath) {
        return Arrays.equals(path, otherPath);
    }
}
