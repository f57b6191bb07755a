package dev.innet.kv.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * RocksDB-backed record store, the engine the FarReach servers used. Every write goes through
 * RocksDB's write-ahead log before it is acknowledged, so a server process that crashes and restarts
 * on the same directory still has every write it acknowledged. The WAL is not fsynced per write:
 * innet models process crashes, not power loss (docs/farreach.md states this limit).
 */
public final class RocksRecordStore implements RecordStore {
    static {
        RocksDB.loadLibrary();
    }

    private final RocksDB db;
    private final Options options;
    private final WriteOptions writeOptions;

    private RocksRecordStore(RocksDB db, Options options, WriteOptions writeOptions) {
        this.db = db;
        this.options = options;
        this.writeOptions = writeOptions;
    }

    public static RocksRecordStore open(Path directory) {
        try {
            Files.createDirectories(directory);
            // A crashed process flushes nothing: closing must not flush the memtable either, so that a
            // restart in the same JVM (RecordStoreOpener) recovers only what the write-ahead log holds,
            // as a restarted process would (FarReachServerTest's restart then tests the WAL, not close).
            Options options = new Options().setCreateIfMissing(true).setAvoidFlushDuringShutdown(true);
            WriteOptions writeOptions = new WriteOptions().setDisableWAL(false).setSync(false);
            return new RocksRecordStore(RocksDB.open(options, directory.toString()), options, writeOptions);
        } catch (RocksDBException | java.io.IOException e) {
            throw new IllegalStateException("cannot open RocksDB at " + directory + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<StoredRecord> get(byte[] key) {
        try {
            byte[] raw = db.get(key);
            return raw == null ? Optional.empty() : Optional.of(StoredRecord.decode(raw));
        } catch (RocksDBException e) {
            throw new IllegalStateException("RocksDB read failed: " + e.getMessage(), e);
        }
    }

    @Override
    public Applied apply(byte[] key, StoredRecord record, Ordering ordering) {
        // Read-compare-write is atomic here because a server handles one event at a time.
        if (!RecordStore.supersedes(record, get(key), ordering)) {
            return Applied.STALE_IGNORED;
        }
        try {
            db.put(writeOptions, key, record.encode());
            return Applied.STORED;
        } catch (RocksDBException e) {
            throw new IllegalStateException("RocksDB write failed: " + e.getMessage(), e);
        }
    }

    @Override
    public long size() {
        long n = 0;
        try (var it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                n++;
            }
        }
        return n;
    }

    @Override
    public void close() {
        writeOptions.close();
        db.close();
        options.close();
    }
}
