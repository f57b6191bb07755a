package dev.innet.kv.store;

import java.util.Optional;

/**
 * A server's key-value storage with FarReach's ordering rule built in: a record numbered by the
 * switch replaces the stored one only if its sequence number is higher (§3.3: "the server keeps the
 * record with the larger sequence number"). Unnumbered writes (seq 0, from programs that do not
 * assign sequence numbers) apply in arrival order, which is what NetCache and no-cache rely on.
 */
public interface RecordStore extends AutoCloseable {

    enum Applied {
        /** The record replaced the stored one (or the key had none). */
        STORED,
        /** The stored record is as new or newer; nothing changed. The write is still acknowledged:
         *  a newer write already superseded it, which is what a linearizable order allows. */
        STALE_IGNORED
    }

    Optional<StoredRecord> get(byte[] key);

    Applied apply(byte[] key, StoredRecord record);

    /** Number of keys held, tombstones included (for reports and tests). */
    long size();

    @Override
    void close();

    /** The shared ordering rule, so every store implementation decides the same way. */
    static boolean supersedes(StoredRecord incoming, Optional<StoredRecord> current) {
        if (current.isEmpty() || incoming.seq() == 0) {
            return true;
        }
        return incoming.seq() > current.get().seq();
    }
}
