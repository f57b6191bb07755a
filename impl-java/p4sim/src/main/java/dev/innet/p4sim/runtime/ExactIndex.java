package dev.innet.p4sim.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * A table's exact-match entries by key words: open addressing with linear probing, the key words stored
 * inline in one array. A lookup hashes the table's key buffer and compares words in place, with no key
 * object and no allocation (a {@code HashMap} of key objects was 9 % of a FarReach read hit). Deletion
 * shifts the rest of the cluster back, so there are no tombstones and lookups never slow down.
 */
final class ExactIndex {
    private static final int INITIAL_CAPACITY = 16;

    private final int words;
    private long[] keys;
    private TableEntry[] entries;
    private int mask;
    private int size;

    ExactIndex(int words) {
        this.words = Math.max(1, words);
        allocate(INITIAL_CAPACITY);
    }

    private void allocate(int capacity) {
        keys = new long[capacity * words];
        entries = new TableEntry[capacity];
        mask = capacity - 1;
    }

    private static int hash(long[] k, int off, int n) {
        long h = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < n; i++) {
            h = (h ^ k[off + i]) * 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
        }
        return (int) (h ^ (h >>> 32));
    }

    private boolean keyAt(int slot, long[] key) {
        int o = slot * words;
        for (int j = 0; j < words; j++) {
            if (keys[o + j] != key[j]) {
                return false;
            }
        }
        return true;
    }

    /** The slot holding {@code key}, or -1. */
    private int find(long[] key) {
        int i = hash(key, 0, words) & mask;
        while (entries[i] != null) {
            if (keyAt(i, key)) {
                return i;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    /** The entry whose key is the first {@code words} words of {@code key}, or null. */
    TableEntry get(long[] key) {
        int i = hash(key, 0, words) & mask;
        while (true) {
            TableEntry e = entries[i];
            if (e == null || keyAt(i, key)) {
                return e;
            }
            i = (i + 1) & mask;
        }
    }

    /** Stores {@code e} under {@code key}; returns the entry it replaced, or null. */
    TableEntry put(long[] key, TableEntry e) {
        int at = find(key);
        if (at >= 0) {
            TableEntry old = entries[at];
            entries[at] = e;
            return old;
        }
        if ((size + 1) * 2 > entries.length) {
            grow();
        }
        int i = hash(key, 0, words) & mask;
        while (entries[i] != null) {
            i = (i + 1) & mask;
        }
        System.arraycopy(key, 0, keys, i * words, words);
        entries[i] = e;
        size++;
        return null;
    }

    /** Removes the entry under {@code key}; returns it, or null if there was none. */
    TableEntry remove(long[] key) {
        int i = find(key);
        if (i < 0) {
            return null;
        }
        TableEntry old = entries[i];
        // backward shift: a later entry of the cluster moves into the hole if its home is at or before it
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            if (entries[j] == null) {
                break;
            }
            int home = hash(keys, j * words, words) & mask;
            if (((i - home) & mask) < ((j - home) & mask)) {
                entries[i] = entries[j];
                System.arraycopy(keys, j * words, keys, i * words, words);
                i = j;
            }
        }
        entries[i] = null;
        size--;
        return old;
    }

    private void grow() {
        long[] oldKeys = keys;
        TableEntry[] oldEntries = entries;
        allocate(oldEntries.length * 2);
        size = 0;
        long[] k = new long[words];
        for (int s = 0; s < oldEntries.length; s++) {
            if (oldEntries[s] != null) {
                System.arraycopy(oldKeys, s * words, k, 0, words);
                put(k, oldEntries[s]);
            }
        }
    }

    int size() {
        return size;
    }

    List<TableEntry> values() {
        List<TableEntry> out = new ArrayList<>(size);
        for (TableEntry e : entries) {
            if (e != null) {
                out.add(e);
            }
        }
        return out;
    }

    void clear() {
        allocate(INITIAL_CAPACITY);
        size = 0;
    }
}
