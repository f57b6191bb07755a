package dev.innet.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.kv.store.MemoryRecordStore;
import dev.innet.kv.store.RecordStore;
import dev.innet.kv.store.RocksRecordStore;
import dev.innet.kv.store.StoredRecord;
import dev.innet.wire.InnetMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordStoreTest {
    @TempDir
    Path dir;

    private static final byte[] KEY = InnetMessage.key("k1");

    private static byte[] v(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private void ordering(Supplier<RecordStore> stores) {
        try (RecordStore store = stores.get()) {
            RecordStore.Ordering seq = RecordStore.Ordering.BY_SEQUENCE;
            assertEquals(RecordStore.Applied.STORED, store.apply(KEY, StoredRecord.value(v("a"), 5), seq));
            // an older numbered write arriving late must not go back in time (§3.3)
            assertEquals(RecordStore.Applied.STALE_IGNORED, store.apply(KEY, StoredRecord.value(v("old"), 4), seq));
            // a duplicate of the same write is harmless
            assertEquals(RecordStore.Applied.STALE_IGNORED, store.apply(KEY, StoredRecord.value(v("a"), 5), seq));
            assertEquals(Optional.of(StoredRecord.value(v("a"), 5)), store.get(KEY));
            // a numbered record with seq 0 (an admitted tombstone for a key the server lacked) never overwrites
            assertEquals(RecordStore.Applied.STALE_IGNORED, store.apply(KEY, StoredRecord.tombstone(0), seq));
            // a delete is a numbered tombstone: an older write cannot resurrect the key
            assertEquals(RecordStore.Applied.STORED, store.apply(KEY, StoredRecord.tombstone(7), seq));
            assertEquals(RecordStore.Applied.STALE_IGNORED, store.apply(KEY, StoredRecord.value(v("zombie"), 6), seq));
            assertTrue(store.get(KEY).orElseThrow().deleted());
            // unnumbered writes (no-cache) apply in arrival order
            assertEquals(RecordStore.Applied.STORED,
                    store.apply(KEY, StoredRecord.value(v("b"), 0), RecordStore.Ordering.ARRIVAL));
            assertEquals(v("b").length, store.get(KEY).orElseThrow().value().length);
        }
    }

    @Test
    void memoryStoreKeepsTheHigherSequenceNumber() {
        ordering(MemoryRecordStore::new);
    }

    @Test
    void rocksStoreKeepsTheHigherSequenceNumber() {
        ordering(() -> RocksRecordStore.open(dir.resolve("db1")));
    }

    @Test
    void rocksStoreKeepsAcknowledgedWritesAcrossReopen() {
        Path db = dir.resolve("db2");
        try (RocksRecordStore store = RocksRecordStore.open(db)) {
            store.apply(KEY, StoredRecord.value(v("durable"), 9), RecordStore.Ordering.BY_SEQUENCE);
        }
        try (RocksRecordStore store = RocksRecordStore.open(db)) {
            assertEquals(Optional.of(StoredRecord.value(v("durable"), 9)), store.get(KEY));
            assertEquals(1, store.size());
        }
    }

    @Test
    void storedRecordEncodingRoundTrips() {
        StoredRecord r = StoredRecord.value(v("xyz"), 0xfffffffeL);
        assertEquals(r, StoredRecord.decode(r.encode()));
        assertEquals(StoredRecord.tombstone(3), StoredRecord.decode(StoredRecord.tombstone(3).encode()));
    }
}
