package dev.innet.kv.spec;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the key-value family's specs name values, and what a replay writes for them. The specs' values
 * are write ids (1..MaxWrites, 0 the initial value every key starts with) and their records are
 * {@code [v |-> id, s |-> seq]}. A replay writes the bytes {@code "w<id>"} for write {@code id}, so a
 * stored or cached value names its write; the initial value is {@code "w0"} where a replay loads it,
 * or no value at all where the implementation starts empty.
 */
public final class WriteIds {
    private WriteIds() {}

    /** The spec record {@code [v |-> v, s |-> s]} (fields in the spec's order). */
    public static Map<String, Object> rec(long v, long s) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("v", v);
        r.put("s", s);
        return r;
    }

    /** The bytes a replay writes for write {@code writeId} (0: the initial value). */
    public static byte[] valueOf(long writeId) {
        return ("w" + writeId).getBytes(StandardCharsets.US_ASCII);
    }

    /** The write id a value carries: 0 for an empty value or "w0"; an error for a value no replayed write produced. */
    public static long writeIdOf(byte[] value) {
        if (value.length == 0) {
            return 0;
        }
        String s = new String(value, StandardCharsets.US_ASCII);
        if (!s.matches("w(0|[1-9][0-9]{0,8})")) {
            throw new IllegalStateException("value '" + s + "' was not written by the replay");
        }
        return Long.parseLong(s.substring(1));
    }
}
