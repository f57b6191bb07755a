package dev.innet.sim.live;

import dev.innet.sim.DurableStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The live {@link DurableStore}: one file per key under {@code root/kv/} (names hex-encoded), written
 * at {@link #sync()} by write-to-temporary, fsync, atomic rename, fsync of the directory. Until then
 * writes wait in memory, so a process crash loses exactly the unsynced writes, as in simulation.
 * {@link #directory()} is {@code root/engine/}, for a storage engine's own files.
 */
public final class FileDurableStore implements DurableStore {
    private static final HexFormat HEX = HexFormat.of();
    private final Path kvDir;
    private final Path engineDir;
    /** Writes since the last sync: a value, or null for a delete. */
    private final TreeMap<String, byte[]> unsynced = new TreeMap<>();

    public FileDurableStore(Path root) {
        this.kvDir = root.resolve("kv");
        this.engineDir = root.resolve("engine");
        try {
            Files.createDirectories(kvDir);
        } catch (IOException e) {
            throw new UncheckedIOException("creating " + kvDir, e);
        }
    }

    @Override
    public Optional<byte[]> get(String key) {
        DurableStore.requireKey(key);
        if (unsynced.containsKey(key)) {
            byte[] v = unsynced.get(key);
            return v == null ? Optional.empty() : Optional.of(v.clone());
        }
        Path file = fileOf(key);
        try {
            return Files.exists(file) ? Optional.of(Files.readAllBytes(file)) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("reading durable key " + key, e);
        }
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
        if (unsynced.isEmpty()) {
            return;
        }
        try {
            for (var e : unsynced.entrySet()) {
                Path file = fileOf(e.getKey());
                if (e.getValue() == null) {
                    Files.deleteIfExists(file);
                    continue;
                }
                Path tmp = kvDir.resolve(file.getFileName() + ".tmp");
                try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
                    ByteBuffer buf = ByteBuffer.wrap(e.getValue());
                    while (buf.hasRemaining()) {
                        ch.write(buf);
                    }
                    ch.force(true);
                }
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            try (FileChannel dir = FileChannel.open(kvDir, StandardOpenOption.READ)) {
                dir.force(true); // make the renames themselves durable
            }
        } catch (IOException e) {
            throw new UncheckedIOException("syncing durable store " + kvDir, e);
        }
        unsynced.clear();
    }

    @Override
    public SortedSet<String> keys() {
        TreeSet<String> keys = new TreeSet<>();
        try (Stream<Path> files = Files.list(kvDir)) {
            files.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".tmp"))
                    .forEach(n -> keys.add(new String(HEX.parseHex(n), StandardCharsets.US_ASCII)));
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + kvDir, e);
        }
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
        try {
            return Files.createDirectories(engineDir);
        } catch (IOException e) {
            throw new UncheckedIOException("creating " + engineDir, e);
        }
    }

    /** Hex file names: keys may contain '/' and other characters a file name cannot. */
    private Path fileOf(String key) {
        return kvDir.resolve(HEX.formatHex(key.getBytes(StandardCharsets.US_ASCII)));
    }
}
