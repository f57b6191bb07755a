package dev.innet.visibility.wire;

import dev.innet.wire.InnetMessage;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One key's metadata as data nodes send it to a rebuilding metadata node (§III-E 2: "they extract and
 * replay this metadata"): key, timestamp, extension and log address, 44 bytes. Packed back to back in
 * the value of REBUILD_ENTRIES messages, at most {@link #PER_MESSAGE} each.
 */
public record IndexRecord(byte[] key, long ts, VisExt ext, LogAddress address) {
    public static final int BYTES = InnetMessage.KEY_BYTES + 4 + VisExt.BYTES + LogAddress.BYTES;
    public static final int PER_MESSAGE = InnetMessage.MAX_VALUE_BYTES / BYTES;

    public static byte[] pack(List<IndexRecord> records) {
        ByteBuffer b = ByteBuffer.allocate(records.size() * BYTES);
        for (IndexRecord r : records) {
            b.put(r.key).putInt((int) r.ts).put(r.ext.encode()).put(r.address.encode());
        }
        return b.array();
    }

    /** The records, or null when the bytes are not a whole number of valid records. */
    public static List<IndexRecord> unpackOrNull(byte[] value) {
        if (value.length % BYTES != 0) {
            return null;
        }
        List<IndexRecord> out = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(value);
        while (b.hasRemaining()) {
            byte[] key = new byte[InnetMessage.KEY_BYTES];
            b.get(key);
            long ts = b.getInt() & 0xffff_ffffL;
            byte[] ext = new byte[VisExt.BYTES];
            b.get(ext);
            byte[] address = new byte[LogAddress.BYTES];
            b.get(address);
            VisExt e = VisExt.decodeOrNull(ext);
            LogAddress a = LogAddress.decodeOrNull(address);
            if (e == null || a == null) {
                return null;
            }
            out.add(new IndexRecord(key, ts, e, a));
        }
        return out;
    }
}
