package dev.innet.farreach.wire;

import dev.innet.wire.InnetMessage;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.ObjLongConsumer;

/**
 * The value of a {@code SNAPSHOT_DONE} message (docs/wire-format.md §3): packed (16-byte key, 4-byte
 * seq) entries, at most 68 in one 1376-byte value. The controller encodes, clients decode; one codec
 * for both so they cannot drift apart.
 */
public final class SnapshotCoverage {
    private static final int ENTRY_BYTES = InnetMessage.KEY_BYTES + 4;
    public static final int ENTRIES_PER_MESSAGE = InnetMessage.MAX_VALUE_BYTES / ENTRY_BYTES;

    /** One covered record: the snapshot (or a server after an eviction) holds this seq or newer. */
    public record Entry(byte[] key, long seq) {}

    private SnapshotCoverage() {}

    public static List<byte[]> encode(List<Entry> entries) {
        List<byte[]> values = new ArrayList<>();
        for (int from = 0; from < entries.size(); from += ENTRIES_PER_MESSAGE) {
            List<Entry> part = entries.subList(from, Math.min(entries.size(), from + ENTRIES_PER_MESSAGE));
            ByteBuffer b = ByteBuffer.allocate(part.size() * ENTRY_BYTES);
            for (Entry e : part) {
                b.put(e.key()).putInt((int) e.seq());
            }
            values.add(Arrays.copyOf(b.array(), b.position()));
        }
        return values;
    }

    /** Calls {@code entry} with each (hex key, seq) of one message's value; a trailing partial entry is ignored. */
    public static void decode(byte[] value, ObjLongConsumer<String> entry) {
        ByteBuffer b = ByteBuffer.wrap(value);
        while (b.remaining() >= ENTRY_BYTES) {
            byte[] key = new byte[InnetMessage.KEY_BYTES];
            b.get(key);
            entry.accept(HexFormat.of().formatHex(key), b.getInt() & 0xffff_ffffL);
        }
    }
}
