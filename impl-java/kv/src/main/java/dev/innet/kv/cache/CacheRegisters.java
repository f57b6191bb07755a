package dev.innet.kv.cache;

import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.InnetMessage;
import java.math.BigInteger;
import java.util.List;

/** Reading and writing a cached record's value and key-table entry through the control API. */
public final class CacheRegisters {
    private CacheRegisters() {}

    /** Writes a value into the 16 word registers (big-endian, zero padded) and its length. */
    public static void writeValue(SwitchControl c, int index, byte[] value) {
        if (value.length > InnetMessage.MAX_CACHED_VALUE_BYTES) {
            throw new IllegalArgumentException("value of " + value.length + " bytes cannot be cached");
        }
        for (int w = 0; w < CacheControlNames.VALUE_WORDS; w++) {
            long word = 0;
            for (int b = 0; b < 8; b++) {
                int at = w * 8 + b;
                word = (word << 8) | (at < value.length ? value[at] & 0xff : 0);
            }
            c.registerWrite(CacheControlNames.valueWord(w), index, new BigInteger(Long.toUnsignedString(word)));
        }
        c.registerWrite(CacheControlNames.RECORD_VALLEN, index, BigInteger.valueOf(value.length));
    }

    public static byte[] readValue(SwitchControl c, int index) {
        int length = c.registerRead(CacheControlNames.RECORD_VALLEN, index).intValue();
        byte[] value = new byte[Math.min(length, InnetMessage.MAX_CACHED_VALUE_BYTES)];
        for (int w = 0; w * 8 < value.length; w++) {
            long word = c.registerRead(CacheControlNames.valueWord(w), index).longValue();
            for (int b = 0; b < 8 && w * 8 + b < value.length; b++) {
                value[w * 8 + b] = (byte) (word >>> (56 - 8 * b));
            }
        }
        return value;
    }

    /** The key-table entry that maps {@code key} to record slot {@code index}. */
    public static EntrySpec lookupEntry(byte[] key, int index) {
        return new EntrySpec(CacheControlNames.CACHE_LOOKUP, List.of(new Match.Exact(CacheControlNames.keyValue(key))), 0,
                CacheControlNames.SET_CACHE_INDEX, List.of(BigInteger.valueOf(index)));
    }

    /** The record slot {@code key}'s key-table entry maps it to, or -1 when the key is not cached. */
    public static int indexOf(SwitchControl c, byte[] key) {
        BigInteger wanted = CacheControlNames.keyValue(key);
        for (EntrySpec e : c.readEntries(CacheControlNames.CACHE_LOOKUP)) {
            if (((Match.Exact) e.match().get(0)).value().equals(wanted)) {
                return e.args().get(0).intValue();
            }
        }
        return -1;
    }

    public static void deleteLookupEntry(SwitchControl c, byte[] key) {
        c.deleteEntry(CacheControlNames.CACHE_LOOKUP, List.of(new Match.Exact(CacheControlNames.keyValue(key))), 0);
    }

    /** The 16-byte wire key of a key-table entry's match value. */
    public static byte[] keyBytes(BigInteger v) {
        byte[] raw = v.toByteArray();
        byte[] key = new byte[InnetMessage.KEY_BYTES];
        int copy = Math.min(raw.length, key.length);
        System.arraycopy(raw, raw.length - copy, key, key.length - copy, copy);
        return key;
    }
}
