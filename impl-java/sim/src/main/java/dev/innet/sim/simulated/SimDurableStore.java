package dev.innet.sim.simulated;

import dev.innet.sim.WriteBehindDurableStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SortedMap;
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
final class SimDurableStore extends WriteBehindDurableStore {
    private final TreeMap<String, byte[]> synced = new TreeMap<>();
    private final Supplier<Path> directoryRoot;
    private final String hostDirectoryName;
    private Path directory;

    SimDurableStore(Supplier<Path> directoryRoot, String hostDirectoryName) {
        this.directoryRoot = directoryRoot;
        this.hostDirectoryName = hostDirectoryName;
    }

    @Override
    protected Optional<byte[]> readSynced(String key) {
        byte[] value = synced.get(key);
        return value == null ? Optional.empty() : Optional.of(value.clone());
    }

    @Override
    protected SortedSet<String> syncedKeys() {
        return new TreeSet<>(synced.keySet());
    }

    @Override
    protected void writeSynced(SortedMap<String, byte[]> writes) {
        for (var e : writes.entrySet()) {
            if (e.getValue() == null) {
                synced.remove(e.getKey());
            } else {
                synced.put(e.getKey(), e.getValue());
            }
        }
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
        return discardUnsynced();
    }
}
