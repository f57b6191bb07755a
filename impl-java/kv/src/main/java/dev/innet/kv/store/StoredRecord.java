package dev.innet.kv.store;

import java.util.Arrays;
import java.util.Objects;

/**
 * What a server keeps per key: the value (empty for a tombstone), the sequence number the switch gave
 * the write that produced it (0 when the write came through a program that does not number writes),
 * and whether it is a delete. Tombstones are kept, with their sequence number, so that an older write
 * that arrives late (reordered, or embedded by the switch) cannot resurrect a deleted key.
 */
public record StoredRecord(byte[] value, long seq, boolean deleted) {
    public StoredRecord {
        Objects.requireNonNull(value, "value");
        if (seq < 0 || seq > 0xffff_ffffL) {
            throw new IllegalArgumentException("seq is unsigned 32-bit, got " + seq);
        }
        if (deleted && value.length != 0) {
            throw new IllegalArgumentException("a tombstone has no value");
        }
    }

    public static StoredRecord value(byte[] value, long seq) {
        return new StoredRecord(value, seq, false);
    }

    public static StoredRecord tombstone(long seq) {
        return new StoredRecord(new byte[0], seq, true);
    }

    /** The record a message carries (embedded, evicted, reported or replayed): its seq, value and DELETED flag. */
    public static StoredRecord carriedBy(dev.innet.wire.InnetMessage msg) {
        return (msg.flags() & dev.innet.kv.KvOp.FLAG_DELETED) != 0 ? tombstone(msg.seq()) : value(msg.value(), msg.seq());
    }

    /** On-disk form: seq (4 bytes, big-endian), flags (1 byte: bit 0 = deleted), value. */
    public byte[] encode() {
        byte[] out = new byte[5 + value.length];
        out[0] = (byte) (seq >>> 24);
        out[1] = (byte) (seq >>> 16);
        out[2] = (byte) (seq >>> 8);
        out[3] = (byte) seq;
        out[4] = (byte) (deleted ? 1 : 0);
        System.arraycopy(value, 0, out, 5, value.length);
        return out;
    }

    public static StoredRecord decode(byte[] bytes) {
        if (bytes.length < 5 || (bytes[4] & ~1) != 0) {
            throw new IllegalStateException("corrupt stored record of " + bytes.length + " bytes");
        }
        long seq = ((bytes[0] & 0xffL) << 24) | ((bytes[1] & 0xffL) << 16) | ((bytes[2] & 0xffL) << 8) | (bytes[3] & 0xffL);
        return new StoredRecord(Arrays.copyOfRange(bytes, 5, bytes.length), seq, bytes[4] == 1);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredRecord r && seq == r.seq && deleted == r.deleted && Arrays.equals(value, r.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(seq, deleted, Arrays.hashCode(value));
    }

    @Override
    public String toString() {
        return deleted ? "tombstone@" + seq : value.length + "B@" + seq;
    }
}
