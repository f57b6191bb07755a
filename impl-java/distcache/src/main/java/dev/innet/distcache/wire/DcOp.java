package dev.innet.distcache.wire;

/**
 * DistCache's ops and constants on UDP 5012 (docs/distcache.md "Wire format";
 * p4/include/distcache_headers.p4 has the same numbers). Client operations use the key-value family's
 * numbers (GET 0x01, PUT 0x02, DEL 0x03, replies | 0x80).
 */
public final class DcOp {
    /** DistCache's UDP port (the paper's "reserved L4 port", §4.1). */
    public static final int PORT = 5012;
    /** Server -> a copy (by layer): phase 1 of a write; seq = the write's version. */
    public static final int INV = 0x31;
    /** Server -> a copy: phase 2 (token 0) or the fill of an insertion (its token); seq = version. */
    public static final int UPD = 0x32;
    /** Agent (controller) -> server: fill my inserted copy; carries layer, node and token. */
    public static final int FETCH = 0x33;
    /** Cache switch -> its agent (a clone): an uncached key of its partition reached the hot threshold. */
    public static final int HOT = 0x34;
    /** Copy -> server: invalidated (or not cached); seq = the invalidation's version. */
    public static final int INV_ACK = 0xB1;

    public static final int LAYER_NONE = 0;
    public static final int LAYER_UPPER = 1;
    public static final int LAYER_LOWER = 2;

    private DcOp() {}

    public static String layerName(int layer) {
        return switch (layer) {
            case LAYER_UPPER -> "upper";
            case LAYER_LOWER -> "lower";
            default -> "none";
        };
    }
}
