package dev.innet.sim.live;

import dev.innet.sim.WriteBehindDurableStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.SortedMap;
import java.util.HexFormat;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The live {@link dev.innet.sim.DurableStore}: one file per key under {@code root/kv/} (names hex-encoded), written
 * at {@link #sync()} by write-to-temporary, fsync, atomic rename, fsync of the directory. Until then
 * writes wait in memory, so a process crash loses exactly the unsynced writes, as in simulation.
 * {@link #directory()} is {@code root/engine/}, for a storage engine's own files.
 */
public final class FileDurableStore extends WriteBehindDurableStore {
    private static final HexFormat HEX = HexFormat.of();
    private final Path kvDir;
    private final Path engineDir;

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
    protected Optional<byte[]> readSynced(String key) {
        Path file = fileOf(key);
        try {
            return Files.exists(file) ? Optional.of(Files.readAllBytes(file)) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("reading durable key " + key, e);
        }
    }

    /** Write to a temporary file, fsync, rename atomically over the key's file, fsync the directory. */
    @Override
    protected void writeSynced(SortedMap<String, byte[]> writes) {
        try {
            for (var e : writes.entrySet()) {
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
    }

    @Override
    protected SortedSet<String> syncedKeys() {
        TreeSet<String> keys = new TreeSet<>();
        try (Stream<Path> files = Files.list(kvDir)) {
            files.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".tmp"))
                    .forEach(n -> keys.add(new String(HEX.parseHex(n), StandardCharsets.US_ASCII)));
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + kvDir, e);
        }
        return keys;
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
