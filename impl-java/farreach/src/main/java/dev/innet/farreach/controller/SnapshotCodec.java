package dev.innet.farreach.controller;

import dev.innet.kv.store.StoredRecord;
import dev.innet.wire.InnetMessage;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The controller's durable form of a snapshot: epoch (4 bytes), count (4), then per record key (16),
 * seq (4), deleted (1), value length (2), value. Kept in the controller's durable store so a controller
 * restart, and the recovery after a switch crash, find the latest completed snapshot. (What clients are
 * told about a snapshot is {@link dev.innet.farreach.wire.SnapshotCoverage}.)
 */
public final class SnapshotCodec {
    private SnapshotCodec() {}

    public record Snapshot(long epoch, List<CachedRecord> records) {}

    public static byte[] encode(Snapshot s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ByteBuffer.allocate(8).putInt((int) s.epoch()).putInt(s.records().size()).array());
        for (CachedRecord r : s.records()) {
            byte[] v = r.record().value();
            out.writeBytes(r.key());
            out.writeBytes(ByteBuffer.allocate(7).putInt((int) r.seq()).put((byte) (r.record().deleted() ? 1 : 0))
                    .putShort((short) v.length).array());
            out.writeBytes(v);
        }
        return out.toByteArray();
    }

    public static Snapshot decode(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        long epoch = in.getInt() & 0xffff_ffffL;
        int n = in.getInt();
        List<CachedRecord> records = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] key = new byte[InnetMessage.KEY_BYTES];
            in.get(key);
            long seq = in.getInt() & 0xffff_ffffL;
            boolean deleted = in.get() == 1;
            byte[] value = new byte[in.getShort() & 0xffff];
            in.get(value);
            records.add(new CachedRecord(key, deleted ? StoredRecord.tombstone(seq) : StoredRecord.value(value, seq)));
        }
        if (in.hasRemaining()) {
            throw new IllegalStateException("snapshot has " + in.remaining() + " trailing bytes");
        }
        return new Snapshot(epoch, records);
    }
}
