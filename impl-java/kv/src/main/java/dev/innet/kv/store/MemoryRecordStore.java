package dev.innet.kv.store;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/** A volatile record store: for tests and for runs that do not model server crashes. */
public final class MemoryRecordStore implements RecordStore {
    private final Map<String, StoredRecord> records = new HashMap<>();

    @Override
    public Optional<StoredRecord> get(byte[] key) {
        return Optional.ofNullable(records.get(HexFormat.of().formatHex(key)));
    }

    @Override
    public Applied apply(byte[] key, StoredRecord record, Ordering ordering) {
        if (!RecordStore.supersedes(record, get(key), ordering)) {
            return Applied.STALE_IGNORED;
        }
        records.put(HexFormat.of().formatHex(key), record);
        return Applied.STORED;
    }

    @Override
    public long size() {
        return records.size();
    }

    @Override
    public void close() {
        // nothing to release
    }
}
