package dev.innet.farreach.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.kv.store.MemoryRecordStore;
import dev.innet.kv.store.RecordStore.Applied;
import dev.innet.kv.store.RecordStore.Ordering;
import dev.innet.kv.store.StoredRecord;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The fence's read and write rules, one record at a time (FarReach.tla's Fenced). */
class FencedRecordStoreTest {
    private static final byte[] K = "k".getBytes(StandardCharsets.UTF_8);
    private static final byte[] ABSENT = "absent".getBytes(StandardCharsets.UTF_8);

    private static StoredRecord value(String v, long seq) {
        return StoredRecord.value(v.getBytes(StandardCharsets.UTF_8), seq);
    }

    @Test
    void withoutAFenceItIsTheStoreItWraps() {
        FencedRecordStore s = new FencedRecordStore(new MemoryRecordStore());
        assertEquals(Applied.STORED, s.apply(K, value("a", 3), Ordering.BY_SEQUENCE));
        assertEquals(Applied.STALE_IGNORED, s.apply(K, value("b", 2), Ordering.BY_SEQUENCE));
        assertEquals(Optional.of(value("a", 3)), s.get(K));
        assertTrue(s.get(ABSENT).isEmpty());
    }

    @Test
    void aFenceLiftsWhatIsHeldAndRefusesWhatIsBelowIt() {
        FencedRecordStore s = new FencedRecordStore(new MemoryRecordStore());
        s.apply(K, value("a", 3), Ordering.BY_SEQUENCE);
        s.raise(100);
        assertEquals(Optional.of(value("a", 100)), s.get(K));
        assertEquals(Optional.of(StoredRecord.tombstone(100)), s.get(ABSENT));
        assertEquals(Applied.BELOW_FENCE, s.apply(K, value("late", 50), Ordering.BY_SEQUENCE));
        assertEquals(Applied.STALE_IGNORED, s.apply(K, value("same", 100), Ordering.BY_SEQUENCE));
        assertEquals(Optional.of(value("a", 100)), s.get(K));
        assertEquals(Applied.STORED, s.apply(K, value("new", 101), Ordering.BY_SEQUENCE));
        assertEquals(Optional.of(value("new", 101)), s.get(K));
        assertEquals(Applied.STALE_IGNORED, s.apply(K, value("older", 101), Ordering.BY_SEQUENCE));
    }

    @Test
    void aFenceIsNeverLoweredAndMustBeASequenceNumber() {
        FencedRecordStore s = new FencedRecordStore(new MemoryRecordStore());
        s.raise(200);
        s.raise(100);
        assertEquals(200, s.fence());
        assertThrows(IllegalArgumentException.class, () -> s.raise(-1));
        assertThrows(IllegalArgumentException.class, () -> s.raise(1L << 32));
    }

    @Test
    void unnumberedWritesAreNotFenced() {
        FencedRecordStore s = new FencedRecordStore(new MemoryRecordStore());
        s.raise(100);
        assertEquals(Applied.STORED, s.apply(K, value("plain", 0), Ordering.ARRIVAL));
        assertEquals(Optional.of(value("plain", 100)), s.get(K));
    }
}
