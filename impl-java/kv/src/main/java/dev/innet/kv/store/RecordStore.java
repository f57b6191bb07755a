package dev.innet.kv.store;

import java.util.Optional;

/**
 * A server's key-value storage with FarReach's ordering rule built in: a numbered record (one whose
 * sequence number the switch assigned: PUT_SEQ, DEL_SEQ, an embedded or evicted record, a recovery
 * replay) replaces the stored one only if its sequence number is higher (§3.3: "the server keeps the
 * record with the larger sequence number"); a numbered record with seq 0 (e.g. a tombstone admitted for
 * a key the server did not have) therefore never overwrites anything. Unnumbered writes (plain PUT/DEL
 * from a program that does not number writes, such as nocache.p4) apply in arrival order.
 */
public interface RecordStore extends AutoCloseable {

    /** How an incoming record is ordered against the stored one. */
    enum Ordering {
        /** Keep the higher sequence number (every record the switch or controller numbered). */
        BY_SEQUENCE,
        /** Apply in arrival order (unnumbered client writes). */
        ARRIVAL
    }

    enum Applied {
        /** The record replaced the stored one (or the key had none). */
        STORED,
        /** The stored record is as new or newer; nothing changed. The write is still acknowledged:
         *  a newer write already superseded it, which is what a linearizable order allows. */
        STALE_IGNORED,
        /** The record was numbered below the server's sequence fence (FarReach's recovery): it belongs to
         *  a switch incarnation that no longer exists. Nothing changed, and a client write is not
         *  acknowledged: no newer write superseded it, so an acknowledgement would lose it. */
        BELOW_FENCE
    }

    Optional<StoredRecord> get(byte[] key);

    Applied apply(byte[] key, StoredRecord record, Ordering ordering);

    /** Number of keys held, tombstones included (for reports and tests). */
    long size();

    @Override
    void close();

    /** The shared ordering rule, so every store implementation decides the same way. */
    static boolean supersedes(StoredRecord incoming, Optional<StoredRecord> current, Ordering ordering) {
        if (current.isEmpty() || ordering == Ordering.ARRIVAL) {
            return true;
        }
        return incoming.seq() > current.get().seq();
    }
}
