package dev.innet.sim;

import java.nio.file.Path;
import java.util.Optional;
import java.util.SortedSet;

/**
 * What survives a crash of the node that owns it. Everything else a node holds is volatile: a crash
 * discards the node object, and a restart builds a fresh one that gets the same store back.
 *
 * <p>Two ways to be durable:
 * <ul>
 *   <li>a small key-to-bytes map with an explicit {@link #sync()}: writes become durable only when
 *       {@code sync()} returns, and a crash loses every write made since the last sync (the simulator
 *       enforces this; it is the fsync rule). Reads see unsynced writes, as a page cache would.
 *   <li>{@link #directory()}: a directory a storage engine such as RocksDB owns. Its files survive crashes
 *       as written; the engine's own write-ahead-log settings decide what an unsynced write means.
 * </ul>
 */
public interface DurableStore {
    /** Keys are short printable names (short enough to be file names, hex-encoded, live); values are bounded so a runaway node fails fast. */
    int MAX_KEY_CHARS = 100;
    int MAX_VALUE_BYTES = 1 << 20;

    /** The value for {@code key}, including writes not yet synced. */
    Optional<byte[]> get(String key);

    void put(String key, byte[] value);

    void delete(String key);

    /** Makes every earlier put and delete durable. */
    void sync();

    /** All keys, including unsynced ones, in sorted order (sorted so iteration is deterministic). */
    SortedSet<String> keys();

    /** A directory under the node's durable root, created on first use, for storage engines that keep files. */
    Path directory();

    static void requireKey(String key) {
        if (key == null || key.isEmpty() || key.length() > MAX_KEY_CHARS) {
            throw new IllegalArgumentException("durable keys are 1.." + MAX_KEY_CHARS + " characters: " + key);
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw new IllegalArgumentException("durable keys are printable ASCII without spaces: " + key);
            }
        }
    }

    static void requireValue(byte[] value) {
        if (value == null || value.length > MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("durable values are non-null and at most " + MAX_VALUE_BYTES + " bytes");
        }
    }
}
