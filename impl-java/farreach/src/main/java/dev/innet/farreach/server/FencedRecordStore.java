package dev.innet.farreach.server;

import dev.innet.kv.store.RecordStore;
import dev.innet.kv.store.StoredRecord;
import java.util.Optional;

/**
 * A server's record store behind recovery's sequence fence (FarReach.tla's {@code Fenced}; an innet
 * extension, docs/farreach.md "Recovery"). A restarted switch numbers from its incarnation's base, above
 * every number an earlier incarnation assigned, so a record from before the crash can never pass the
 * switch's latest guard (reply seq >= the key's counter) again. Once recovery has fenced the server at
 * that base, the server
 * <ul>
 *   <li>refuses every numbered record below the fence ({@link Applied#BELOW_FENCE}): a write the crashed
 *       switch numbered that arrives late can no longer change the record;</li>
 *   <li>reports every record it holds, and every key it lacks, with a seq of at least the fence.</li>
 * </ul>
 * So a reply carrying the server's record is exactly as new as the record can be until the new
 * incarnation numbers a write of the key, and the switch's unchanged guard accepts it while the counter
 * is still at the base. A reply produced before the fence carries an older seq and is still refused.
 *
 * <p>Before any fence (0) the store behaves exactly like the one it wraps. Records are not rewritten:
 * the fence is applied when they are read, so raising it costs nothing per key.
 */
public final class FencedRecordStore implements RecordStore {
    private final RecordStore inner;
    private long fence;

    public FencedRecordStore(RecordStore inner) {
        this.inner = inner;
    }

    /** The current fence: 0 until a recovery fenced this server. */
    public long fence() {
        return fence;
    }

    /** Raises the fence to {@code newFence}; a lower one (a duplicate of an older recovery's) changes nothing. */
    public void raise(long newFence) {
        if (newFence < 0 || newFence > 0xffff_ffffL) {
            throw new IllegalArgumentException("a fence is an unsigned 32-bit sequence number, got " + newFence);
        }
        fence = Math.max(fence, newFence);
    }

    @Override
    public Optional<StoredRecord> get(byte[] key) {
        Optional<StoredRecord> held = inner.get(key);
        if (fence == 0) {
            return held;
        }
        if (held.isEmpty()) {
            // a key the server never stored reads as deleted at the fence, as the spec's initial record does
            return Optional.of(StoredRecord.tombstone(fence));
        }
        StoredRecord r = held.get();
        return r.seq() >= fence ? held : Optional.of(new StoredRecord(r.value(), fence, r.deleted()));
    }

    @Override
    public Applied apply(byte[] key, StoredRecord record, Ordering ordering) {
        if (fence == 0 || ordering != Ordering.BY_SEQUENCE) {
            return inner.apply(key, record, ordering);
        }
        if (record.seq() < fence) {
            return Applied.BELOW_FENCE;
        }
        if (record.seq() == fence) {
            return Applied.STALE_IGNORED; // what is held reads as the fence already: not newer
        }
        return inner.apply(key, record, ordering); // above the fence: newer than the held record iff newer raw
    }

    @Override
    public long size() {
        return inner.size();
    }

    @Override
    public void close() {
        inner.close();
    }
}
