package dev.innet.rack.ycsb;

import dev.innet.wire.InnetMessage;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * How YCSB records map onto innet's wire format. Keys: YCSB keys ("user6284781860667377211") are
 * longer than innet's fixed 16 bytes, so the wire key is the first 16 bytes of the key's SHA-256
 * (collisions among a benchmark's keys are negligible). Values: the record's fields, sorted by name, as
 * (u8 name length, name, u16 value length, value). YCSB's default record (10 fields "field0".."field9"
 * of 100 bytes) is 10 x 109 = 1,090 bytes, within the wire's 1,376 but too large for a switch to cache
 * (128 bytes): it is relayed to the servers. With fieldcount=1 and fieldlength=119 a record is the
 * papers' 128 bytes, which the switch caches.
 */
public final class FieldCodec {
    private FieldCodec() {}

    public static byte[] wireKey(String ycsbKey) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(ycsbKey.getBytes(StandardCharsets.UTF_8));
            return Arrays.copyOf(digest, InnetMessage.KEY_BYTES);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }

    public static byte[] encode(Map<String, byte[]> fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Map.Entry<String, byte[]> f : new TreeMap<>(fields).entrySet()) {
            byte[] name = f.getKey().getBytes(StandardCharsets.UTF_8);
            if (name.length > 255 || f.getValue().length > 0xffff) {
                throw new IllegalArgumentException("field too large: " + f.getKey());
            }
            out.write(name.length);
            out.writeBytes(name);
            out.write(f.getValue().length >>> 8);
            out.write(f.getValue().length);
            out.writeBytes(f.getValue());
        }
        return out.toByteArray();
    }

    public static Map<String, byte[]> decode(byte[] value) {
        Map<String, byte[]> fields = new TreeMap<>();
        int at = 0;
        while (at < value.length) {
            int nameLength = value[at++] & 0xff;
            if (at + nameLength + 2 > value.length) {
                throw new IllegalArgumentException("record truncated in a field name");
            }
            String name = new String(value, at, nameLength, StandardCharsets.UTF_8);
            at += nameLength;
            int length = ((value[at] & 0xff) << 8) | (value[at + 1] & 0xff);
            at += 2;
            if (at + length > value.length) {
                throw new IllegalArgumentException("record truncated in field " + name);
            }
            fields.put(name, Arrays.copyOfRange(value, at, at + length));
            at += length;
        }
        return fields;
    }
}
