package dev.innet.kv.store;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Opens a server's record store at every start of the server. A crashed incarnation cannot close its
 * RocksDB handle (its node object is simply dropped), and RocksDB refuses a second open of the same
 * directory in one process; so the opener closes whatever handle the previous incarnation left on that
 * directory and reopens it, which replays RocksDB's write-ahead log exactly as a restarted process
 * would. Lives outside the node (in the run's wiring), never inside protocol code.
 */
public interface RecordStoreOpener {
    RecordStore open(Path durableDirectory);

    /** Volatile stores: every start begins empty (for runs that do not model server durability). */
    static RecordStoreOpener memory() {
        return dir -> new MemoryRecordStore();
    }

    /** RocksDB under {@code <durable dir>/rocksdb}, reopened (WAL replay) at each restart. */
    static RecordStoreOpener rocksdb() {
        Map<Path, RocksRecordStore> open = new HashMap<>();
        return dir -> {
            Path db = dir.resolve("rocksdb").toAbsolutePath().normalize();
            synchronized (open) {
                RocksRecordStore previous = open.remove(db);
                if (previous != null) {
                    previous.close();
                }
                RocksRecordStore store = RocksRecordStore.open(db);
                open.put(db, store);
                return store;
            }
        };
    }
}
