package dev.innet.kv.spec;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the key-value family's specs name values, and what a replay writes for them. The specs' values
 * are write ids (1..MaxWrites, 0 the initial value every key starts with) and their records are
 * {@code [v |-> id, s |-> seq]}. A replay writes the bytes {@code "w<id>"} for write {@code id}, padded
 * with dots to a length that varies from write to write over 2..128 bytes, so a stored or cached value
 * names its write and replays carry values through every value word of the switch's cache (16 words of
 * 8 bytes); a value cut short or padded wrong on its way is not taken for its write. The initial value
 * is {@code "w0"} where a replay loads it, or no value at all where the implementation starts empty.
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

    /** The longest value a replay writes: what the switches' caches hold (16 words of 8 bytes). */
    public static final int MAX_LENGTH = 128;

    /** The bytes a replay writes for write {@code writeId} (0: the initial value, {@code "w0"}). */
    public static byte[] valueOf(long writeId) {
        String name = "w" + writeId;
        return (name + ".".repeat(lengthOf(writeId) - name.length())).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The length of write {@code writeId}'s value: 2 for the initial value; otherwise spread over
     * 2..128 by a stride prime to 127, so consecutive writes land in different value words, offset so
     * that write 1, which every trace with a write has, is exactly the longest value a switch caches.
     */
    static int lengthOf(long writeId) {
        if (writeId == 0) {
            return 2;
        }
        String name = "w" + writeId;
        return Math.max(name.length(), 2 + (int) Math.floorMod(writeId * 41 + 85, 127L));
    }

    /**
     * The write id a value carries: 0 for an empty value or "w0"; an error for a value no replayed write
     * produced, including one whose padding does not have its write's length.
     */
    public static long writeIdOf(byte[] value) {
        if (value.length == 0) {
            return 0;
        }
        String s = new String(value, StandardCharsets.US_ASCII);
        Matcher m = WRITTEN.matcher(s);
        if (!m.matches()) {
            throw new IllegalStateException("value '" + s + "' was not written by the replay");
        }
        long id = Long.parseLong(m.group(1));
        if (value.length != lengthOf(id)) {
            throw new IllegalStateException("value of write " + id + " is " + value.length + " bytes long, the replay wrote "
                    + lengthOf(id) + " ('" + s + "')");
        }
        return id;
    }

    private static final Pattern WRITTEN = Pattern.compile("w(0|[1-9][0-9]{0,8})\\.*");
}
