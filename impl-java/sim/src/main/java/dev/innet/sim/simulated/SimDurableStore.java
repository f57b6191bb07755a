package dev.innet.sim.simulated;

import dev.innet.sim.DurableStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The simulator's durable store for one host: it outlives the host's node objects. Unsynced writes
 * live in an overlay that {@link #loseUnsynced()} (called at a crash) throws away, which is what makes
 * a forgotten {@code sync()} a bug the simulator can find. Values are copied in and out, so a node
 * cannot change durable state by mutating an array it still holds.
 */
final class SimDurableStore implements DurableStore {
    private final TreeMap<String, byte[]> synced = new TreeMap<>();
    /** Writes since the last sync: a value, or {@code null} for a delete. */
    private final TreeMap<String, byte[]> unsynced = new TreeMap<>();
    private final Supplier<Path> directoryRoot;
    private final String hostDirectoryName;
    private Path directory;

    SimDurableStore(Supplier<Path> directoryRoot, String hostDirectoryName) {
        this.directoryRoot = directoryRoot;
        this.hostDirectoryName = hostDirectoryName;
    }

    @Override
    public Optional<byte[]> get(String key) {
        DurableStore.requireKey(key);
        byte[] value = unsynced.containsKey(key) ? unsynced.get(key) : synced.get(key);
        return value == null ? Optional.empty() : Optional.of(value.clone());
    }

    @Override
    public void put(String key, byte[] value) {
        DurableStore.requireKey(key);
        DurableStore.requireValue(value);
        unsynced.put(key, value.clone());
    }

    @Override
    public void delete(String key) {
        DurableStore.requireKey(key);
        unsynced.put(key, null);
    }

    @Override
    public void sync() {
        for (var e : unsynced.entrySet()) {
            if (e.getValue() == null) {
                synced.remove(e.getKey());
            } else {
                synced.put(e.getKey(), e.getValue());
            }
        }
        unsynced.clear();
    }

    @Override
    public SortedSet<String> keys() {
        TreeSet<String> keys = new TreeSet<>(synced.keySet());
        for (var e : unsynced.entrySet()) {
            if (e.getValue() == null) {
                keys.remove(e.getKey());
            } else {
                keys.add(e.getKey());
            }
        }
        return Collections.unmodifiableSortedSet(keys);
    }

    @Override
    public Path directory() {
        if (directory == null) {
            try {
                directory = Files.createDirectories(directoryRoot.get().resolve(hostDirectoryName));
            } catch (IOException e) {
                throw new UncheckedIOException("creating durable directory for " + hostDirectoryName, e);
            }
        }
        return directory;
    }

    /** A crash: what was not synced is gone. Returns how many writes were lost (for the event log). */
    int loseUnsynced() {
        int lost = unsynced.size();
        unsynced.clear();
        return lost;
    }
}
