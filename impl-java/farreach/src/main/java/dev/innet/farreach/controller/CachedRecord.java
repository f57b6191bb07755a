package dev.innet.farreach.controller;

import dev.innet.kv.store.StoredRecord;
import java.util.HexFormat;

/** A record as the switch holds it: key, value, sequence number, tombstone flag. */
public record CachedRecord(byte[] key, StoredRecord record) {
    public String keyHex() {
        return HexFormat.of().formatHex(key);
    }

    public long seq() {
        return record.seq();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CachedRecord c && java.util.Arrays.equals(key, c.key) && record.equals(c.record);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(key) * 31 + record.hashCode();
    }

    @Override
    public String toString() {
        return keyHex() + "=" + record;
    }
}
