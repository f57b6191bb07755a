package dev.innet.lake.wire;

/**
 * A GET, SET or DELETE request. {@code value}, {@code flags} and {@code expiration} are SET's (its
 * 8 bytes of extras are flags then expiration); GET and DELETE have an empty value and zero flags.
 */
public record McRequest(McOpcode opcode, ByteString key, ByteString value, int flags, int expiration,
                        int opaque, long cas) implements McMessage {
    /** memcached's longest key. */
    public static final int MAX_KEY_BYTES = 250;

    public McRequest {
        if (key.isEmpty() || key.length() > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("a request key has 1.." + MAX_KEY_BYTES + " bytes, not " + key.length());
        }
        if (opcode != McOpcode.SET && (!value.isEmpty() || flags != 0 || expiration != 0)) {
            throw new IllegalArgumentException(opcode + " carries no value, flags or expiration");
        }
    }

    public static McRequest get(ByteString key, int opaque) {
        return new McRequest(McOpcode.GET, key, ByteString.EMPTY, 0, 0, opaque, 0);
    }

    public static McRequest set(ByteString key, ByteString value, int flags, int expiration, int opaque) {
        return new McRequest(McOpcode.SET, key, value, flags, expiration, opaque, 0);
    }

    public static McRequest delete(ByteString key, int opaque) {
        return new McRequest(McOpcode.DELETE, key, ByteString.EMPTY, 0, 0, opaque, 0);
    }

    int extrasLength() {
        return opcode == McOpcode.SET ? 8 : 0;
    }
}
