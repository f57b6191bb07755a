package dev.innet.visibility.metadata;

import dev.innet.visibility.wire.IndexRecord;
import java.util.Arrays;

/**
 * The metadata node's index, key -> (timestamp, metadata: log address and the application's tail), in key
 * order (a skiplist of our own, {@link SkipList}: the sorted batches of operation combining walk it in order, §III-D). Every
 * update is applied only if it is newer than what the index holds (the metadata node passes the rule): updates arrive out of order (asynchronous copies, second phases,
 * re-sends, rebuilds), and so every one is idempotent (§III-E 1). The index therefore only grows, which
 * the spec's NoClearByOlder relies on.
 */
public final class MetadataIndex {
    private final SkipList<Key, IndexRecord> byKey = new SkipList<>();

    record Key(byte[] bytes) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            return Arrays.compareUnsigned(bytes, o.bytes);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }

    /** Applies {@code r} if the key has no entry or {@code supersedes} (update, held) says so; returns whether it did. */
    public boolean applyIf(IndexRecord r, java.util.function.BiPredicate<IndexRecord, IndexRecord> supersedes) {
        Key k = new Key(r.key());
        IndexRecord held = byKey.get(k);
        if (held != null && !supersedes.test(r, held)) {
            return false;
        }
        byKey.put(k, r);
        return true;
    }

    /** The key's entry, or null. */
    public IndexRecord get(byte[] key) {
        return byKey.get(new Key(key));
    }

    public int size() {
        return byKey.size();
    }

    /** Every entry, in key order (read-only: observers such as the conformance replay). */
    public java.util.List<IndexRecord> records() {
        return java.util.List.copyOf(byKey.values());
    }
}
