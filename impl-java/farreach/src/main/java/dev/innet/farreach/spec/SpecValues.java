package dev.innet.farreach.spec;

import dev.innet.kv.store.StoredRecord;
import dev.innet.kv.spec.WriteIds;
import dev.innet.protocol.spec.TlaValues;
import java.util.Map;
import java.util.Optional;

/**
 * How FarReach.tla's values and the implementation's correspond. The spec's values are write ids
 * (1..MaxWrites; 0 is every key's initial value) and its sequence numbers are per-key counters; the
 * replay writes the bytes {@code "w<id>"} for write id {@code id}, so a stored or cached value names
 * its write. An empty value (a key never written, or a tombstone of the admission of such a key) is
 * the spec's 0. Records are {@code [v |-> id, s |-> seq]}; the spec's NoRec is {@code [v |-> -1, s |-> -1]}.
 */
final class SpecValues {
    static final Map<String, Object> NO_REC = rec(-1, -1);

    private SpecValues() {}

    static Map<String, Object> rec(long v, long s) {
        return WriteIds.rec(v, s);
    }

    static byte[] valueOf(long writeId) {
        return WriteIds.valueOf(writeId);
    }

    /** The write id a value carries; 0 for an empty value; an error for a value no replayed write produced. */
    static long writeIdOf(byte[] value) {
        return WriteIds.writeIdOf(value);
    }

    /** A stored or cached record as a spec record (a deleted record has no value: id 0). */
    static Map<String, Object> recOf(StoredRecord r) {
        return rec(r.deleted() ? 0 : writeIdOf(r.value()), r.seq());
    }

    /** A server's record of a key: nothing stored is the spec's initial record [v |-> 0, s |-> 0]. */
    static Map<String, Object> storeOf(Optional<StoredRecord> stored) {
        return stored.map(SpecValues::recOf).orElse(rec(0, 0));
    }

    static long asLong(Object o) {
        return TlaValues.asLong(o);
    }

    static String name(Object modelValue) {
        return TlaValues.name(modelValue);
    }

    static Map<String, Object> asRecord(Object o) {
        return TlaValues.asRecord(o);
    }
}
