package dev.innet.sim;

import java.util.Collections;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The fsync rule both durable stores share (simulated and live): writes wait in an in-memory overlay
 * that reads see, and reach the backing storage only at {@link #sync()}; a crash loses the overlay.
 * Subclasses provide the backing storage only.
 */
public abstract class WriteBehindDurableStore implements DurableStore {
    /** Writes since the last sync: a value, or {@code null} for a delete. */
    private final TreeMap<String, byte[]> unsynced = new TreeMap<>();

    /** The synced value of {@code key}, as an array the caller may keep. */
    protected abstract Optional<byte[]> readSynced(String key);

    /** Keys with a synced value. */
    protected abstract SortedSet<String> syncedKeys();

    /** Makes {@code writes} durable ({@code null} values are deletes); called only with some writes. */
    protected abstract void writeSynced(SortedMap<String, byte[]> writes);

    @Override
    public final Optional<byte[]> get(String key) {
        DurableStore.requireKey(key);
        if (unsynced.containsKey(key)) {
            byte[] v = unsynced.get(key);
            return v == null ? Optional.empty() : Optional.of(v.clone());
        }
        return readSynced(key);
    }

    @Override
    public final void put(String key, byte[] value) {
        DurableStore.requireKey(key);
        DurableStore.requireValue(value);
        unsynced.put(key, value.clone());
    }

    @Override
    public final void delete(String key) {
        DurableStore.requireKey(key);
        unsynced.put(key, null);
    }

    @Override
    public final void sync() {
        if (unsynced.isEmpty()) {
            return;
        }
        writeSynced(Collections.unmodifiableSortedMap(unsynced));
        unsynced.clear();
    }

    @Override
    public final SortedSet<String> keys() {
        TreeSet<String> keys = new TreeSet<>(syncedKeys());
        for (var e : unsynced.entrySet()) {
            if (e.getValue() == null) {
                keys.remove(e.getKey());
            } else {
                keys.add(e.getKey());
            }
        }
        return Collections.unmodifiableSortedSet(keys);
    }

    /** A crash: the unsynced writes are gone. Returns how many there were. */
    protected final int discardUnsynced() {
        int lost = unsynced.size();
        unsynced.clear();
        return lost;
    }
}
