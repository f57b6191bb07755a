package dev.innet.lake.wire;

/** The memcached binary-protocol commands LaKe handles. */
public enum McOpcode {
    GET(0x00),
    SET(0x01),
    DELETE(0x04);

    private final int code;

    McOpcode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The opcode for a wire code, or null if LaKe does not handle it. */
    static McOpcode ofCode(int code) {
        for (McOpcode op : values()) {
            if (op.code == code) {
                return op;
            }
        }
        return null;
    }
}
