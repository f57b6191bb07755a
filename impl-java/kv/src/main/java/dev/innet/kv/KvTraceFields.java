package dev.innet.kv;

import dev.innet.kv.store.StoredRecord;
import dev.innet.sim.TraceEvent;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * How the key-value family's trace events (docs/conformance.md, trace validation) write keys, values and
 * records, so every protocol's converter reads them the same way.
 */
public final class KvTraceFields {
    private KvTraceFields() {}

    /** A key as trace text: the key bytes without their zero padding. */
    public static String key(byte[] key) {
        int end = key.length;
        while (end > 0 && key[end - 1] == 0) {
            end--;
        }
        return text(Arrays.copyOf(key, end));
    }

    /** Bytes as trace text: the text itself when printable ASCII, else 0x and hex (distinct values stay distinct). */
    public static String text(byte[] bytes) {
        for (byte b : bytes) {
            if (b < 0x20 || b > 0x7e) {
                return "0x" + HexFormat.of().formatHex(bytes);
            }
        }
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /** Adds a record's fields under a prefix: {prefix}Seq, {prefix}Value, {prefix}Deleted. */
    public static TraceEvent withRecord(TraceEvent e, String prefix, StoredRecord r) {
        return e.with(prefix + "Seq", r.seq()).with(prefix + "Value", r.deleted() ? "" : text(r.value()))
                .with(prefix + "Deleted", r.deleted());
    }

    /** Adds "no record" under a prefix (a server that stores nothing for the key): seq 0, deleted. */
    public static TraceEvent withNoRecord(TraceEvent e, String prefix) {
        return e.with(prefix + "Seq", 0).with(prefix + "Value", "").with(prefix + "Deleted", true);
    }
}
