package dev.innet.visibility.wire;

import dev.innet.wire.InnetMessage;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One key's metadata as the metadata node indexes it and as data nodes send it to a rebuilding metadata
 * node (§III-E 2: "they extract and replay this metadata"): key, timestamp, extension, and the metadata
 * itself, which is always the log address of the entry that made it followed by the application's
 * {@code tail} (empty for the key-value store; the rest of the inode for the file system,
 * {@code fs.Inode}). Packed back to back in the value of REBUILD_ENTRIES messages as key (16),
 * timestamp (u32), extension (8), address (16), tail length (u16), tail.
 */
public record IndexRecord(byte[] key, long ts, VisExt ext, LogAddress address, byte[] tail) {
    /** The packed size of a record without a tail. */
    public static final int BYTES = InnetMessage.KEY_BYTES + 4 + VisExt.BYTES + LogAddress.BYTES + 2;

    public IndexRecord {
        if (tail.length > VisOp.MAX_SWITCH_METADATA_BYTES) {
            throw new IllegalArgumentException("metadata tail of " + tail.length + " bytes");
        }
    }

    /** A record of the key-value store: the metadata is the log address alone. */
    public IndexRecord(byte[] key, long ts, VisExt ext, LogAddress address) {
        this(key, ts, ext, address, new byte[0]);
    }

    /** The metadata as it travels in WRITE_REPLY, META_UPDATE and READ_REPLY values: address, then tail. */
    public byte[] metadata() {
        return metadataOf(address, tail);
    }

    public static byte[] metadataOf(LogAddress address, byte[] tail) {
        return ByteBuffer.allocate(LogAddress.BYTES + tail.length).put(address.encode()).put(tail).array();
    }

    /** The tail of {@code metadata} (what follows its log address), or null when it has no valid address. */
    public static byte[] tailOrNull(byte[] metadata) {
        if (metadata.length < LogAddress.BYTES
                || LogAddress.decodeOrNull(Arrays.copyOf(metadata, LogAddress.BYTES)) == null) {
            return null;
        }
        return Arrays.copyOfRange(metadata, LogAddress.BYTES, metadata.length);
    }

    private int packedBytes() {
        return BYTES + tail.length;
    }

    public static byte[] pack(List<IndexRecord> records) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (IndexRecord r : records) {
            out.writeBytes(ByteBuffer.allocate(r.packedBytes()).put(r.key).putInt((int) r.ts).put(r.ext.encode())
                    .put(r.address.encode()).putShort((short) r.tail.length).put(r.tail).array());
        }
        return out.toByteArray();
    }

    /** The records packed into as few message values as fit ({@link InnetMessage#MAX_VALUE_BYTES} each), in order. */
    public static List<byte[]> packMessages(List<IndexRecord> records) {
        List<byte[]> messages = new ArrayList<>();
        List<IndexRecord> part = new ArrayList<>();
        int bytes = 0;
        for (IndexRecord r : records) {
            if (bytes + r.packedBytes() > InnetMessage.MAX_VALUE_BYTES) {
                messages.add(pack(part));
                part.clear();
                bytes = 0;
            }
            part.add(r);
            bytes += r.packedBytes();
        }
        if (!part.isEmpty()) {
            messages.add(pack(part));
        }
        return messages;
    }

    /** The records, or null when the bytes are not a whole number of valid records. */
    public static List<IndexRecord> unpackOrNull(byte[] value) {
        List<IndexRecord> out = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(value);
        while (b.hasRemaining()) {
            if (b.remaining() < BYTES) {
                return null;
            }
            byte[] key = new byte[InnetMessage.KEY_BYTES];
            b.get(key);
            long ts = b.getInt() & 0xffff_ffffL;
            byte[] ext = new byte[VisExt.BYTES];
            b.get(ext);
            byte[] address = new byte[LogAddress.BYTES];
            b.get(address);
            int tailLength = b.getShort() & 0xffff;
            VisExt e = VisExt.decodeOrNull(ext);
            LogAddress a = LogAddress.decodeOrNull(address);
            if (e == null || a == null || tailLength > VisOp.MAX_SWITCH_METADATA_BYTES || b.remaining() < tailLength) {
                return null;
            }
            byte[] tail = new byte[tailLength];
            b.get(tail);
            out.add(new IndexRecord(key, ts, e, a, tail));
        }
        return out;
    }
}
