package dev.innet.visibility.datanode;

import dev.innet.visibility.wire.VisExt;
import dev.innet.wire.InnetMessage;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One entry of a data node's append-only log (§III-B 2: "the data node stores the entire key with the
 * log entry"): the full key, the timestamp its slot's source gave it, the extension (index and
 * fingerprint, so the asynchronous update can be re-sent from the log), whether it is a delete, the
 * request that wrote it (client address and request id, so a retry gets this entry back, §III-E 1), and
 * the value.
 */
public record LogEntry(byte[] key, long ts, VisExt ext, boolean tombstone, int clientIp, long reqId, byte[] value) {
    private static final int FIXED = InnetMessage.KEY_BYTES + 4 + VisExt.BYTES + 1 + 4 + 4 + 2;

    public byte[] encode() {
        return ByteBuffer.allocate(FIXED + value.length).put(key).putInt((int) ts).put(ext.encode())
                .put((byte) (tombstone ? 1 : 0)).putInt(clientIp).putInt((int) reqId).putShort((short) value.length)
                .put(value).array();
    }

    /** Decodes what {@link #encode} wrote; a corrupt entry is an error (the log is ours, not the network's). */
    public static LogEntry decode(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        byte[] key = new byte[InnetMessage.KEY_BYTES];
        b.get(key);
        long ts = b.getInt() & 0xffff_ffffL;
        byte[] ext = new byte[VisExt.BYTES];
        b.get(ext);
        VisExt e = VisExt.decodeOrNull(ext);
        boolean tombstone = b.get() != 0;
        int clientIp = b.getInt();
        long reqId = b.getInt() & 0xffff_ffffL;
        byte[] value = new byte[b.getShort() & 0xffff];
        b.get(value);
        if (e == null || b.hasRemaining()) {
            throw new IllegalStateException("corrupt log entry");
        }
        return new LogEntry(key, ts, e, tombstone, clientIp, reqId, value);
    }

    public boolean holdsKey(byte[] other) {
        return Arrays.equals(key, other);
    }
}
