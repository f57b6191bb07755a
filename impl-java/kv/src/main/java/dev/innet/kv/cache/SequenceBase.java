package dev.innet.kv.cache;

import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;
import java.util.zip.CRC32;

/**
 * The switch's per-slot sequence counters (p4/include/ingress_cache.p4, shared by netcache.p4 and
 * farreach.p4) start at 0 on every switch start, but servers keep the numbers earlier incarnations
 * assigned: writes numbered from 0 again would be ignored as stale while being acknowledged. So the
 * g-th switch incarnation numbers from (g - 1) * 2^24: every number it assigns exceeds every number of
 * earlier ones as long as no slot takes 2^24 writes in one incarnation (and at most 256 incarnations
 * fit the 32-bit numbers).
 */
public final class SequenceBase {
    public static final String SEQ_COUNTER = "MyIngress.seq_counter";
    public static final int SEQ_SLOTS = 32768;
    private static final int MAX_INCARNATIONS = 256;

    private SequenceBase() {}

    /** How many 2^24-number ranges fit in the 32-bit sequence numbers. */
    public static final int RANGES = MAX_INCARNATIONS;

    /**
     * The base of range {@code range} (0 = the first switch's): range * 2^24. A range past the last one is
     * the 32-bit wrap, which the caller must handle before it gets here.
     */
    public static long ofRange(long range) {
        if (range < 0 || range >= RANGES) {
            throw new IllegalStateException("32-bit sequence numbers hold " + RANGES + " ranges of 2^24; range "
                    + range + " is past the wrap");
        }
        return range << 24;
    }

    /** The first sequence number of the {@code bringUp}-th switch incarnation (1 = the first). */
    public static long of(long bringUp) {
        if (bringUp < 1 || bringUp > MAX_INCARNATIONS) {
            throw new IllegalStateException("32-bit sequence numbers allow " + MAX_INCARNATIONS
                    + " switch incarnations; this is incarnation " + bringUp);
        }
        return (bringUp - 1) << 24;
    }

    /**
     * The counter slot that numbers {@code key}'s writes: CRC-32 of the 16-byte wire key modulo the
     * slot count, as assign_seq in p4/include/ingress_cache.p4 computes it. Keys may share a slot.
     */
    public static int slotOf(byte[] key) {
        CRC32 crc = new CRC32();
        crc.update(key);
        return (int) (crc.getValue() % SEQ_SLOTS);
    }

    /** Raises every counter slot to at least {@code floor}. */
    public static void raise(SwitchControl control, long floor) {
        control.registerWrite(SEQ_COUNTER, 0, SEQ_SLOTS - 1, BigInteger.valueOf(floor));
    }
}
