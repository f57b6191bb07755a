package dev.innet.lake.wire;

/**
 * memcached's response to a GET, SET or DELETE. A GET hit (status OK) carries the item's value and
 * its flags (4 bytes of extras); a failed command carries memcached's error text as its value
 * ("Not found"); a successful SET or DELETE carries nothing but the item's CAS.
 */
public record McResponse(McOpcode opcode, int status, ByteString value, int flags, int opaque, long cas)
        implements McMessage {

    public McResponse {
        McFrame.requireU16("status", status);
        boolean getHit = opcode == McOpcode.GET && status == McStatus.OK;
        if (!getHit && flags != 0) {
            throw new IllegalArgumentException("only a GET hit carries flags");
        }
        if (status == McStatus.OK && opcode != McOpcode.GET && !value.isEmpty()) {
            throw new IllegalArgumentException("a successful " + opcode + " response carries no value");
        }
    }

    public static McResponse getHit(ByteString value, int flags, int opaque, long cas) {
        return new McResponse(McOpcode.GET, McStatus.OK, value, flags, opaque, cas);
    }

    /** A response with only a status: OK for SET/DELETE, or an error with memcached's text. */
    public static McResponse status(McOpcode opcode, int status, String text, int opaque, long cas) {
        return new McResponse(opcode, status, ByteString.utf8(text), 0, opaque, cas);
    }

    public boolean ok() {
        return status == McStatus.OK;
    }

    int extrasLength() {
        return opcode == McOpcode.GET && status == McStatus.OK ? 4 : 0;
    }
}
