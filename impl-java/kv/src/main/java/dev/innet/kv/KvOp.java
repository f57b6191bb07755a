package dev.innet.kv;

/**
 * Op codes of the key-value cache family (UDP 5008) and FarReach's control messages (UDP 5009),
 * as fixed in docs/wire-format.md §3. Replies carry the request op with bit 7 set.
 */
public final class KvOp {
    public static final int KV_PORT = 5008;
    public static final int CONTROL_PORT = 5009;

    // client operations
    public static final int GET = 0x01;
    public static final int PUT = 0x02;
    public static final int DEL = 0x03;
    public static final int GET_REPLY = 0x81;
    public static final int PUT_REPLY = 0x82;
    public static final int DEL_REPLY = 0x83;

    // requests rewritten by the switch on their way to a server
    /** Conservative read of a cached-but-outdated record; the reply refreshes the switch (§3.2). */
    public static final int GET_FOR_CACHE = 0x11;
    /** A write carrying a switch-assigned sequence number; applied only if newer (§3.3). */
    public static final int PUT_SEQ = 0x12;
    public static final int DEL_SEQ = 0x13;
    /** A read carrying the switch's record of a key being evicted (record embedding, §3.3). */
    public static final int GET_EMBED = 0x14;
    public static final int GET_FOR_CACHE_REPLY = 0x91;

    // control
    public static final int HOT_REPORT = 0x21;
    public static final int EVICT_STORE = 0x22;
    public static final int EVICT_STORE_REPLY = 0xA2;
    public static final int SNAPSHOT_ORIGINAL = 0x23;
    public static final int SNAPSHOT_DONE = 0x24;
    public static final int RECOVER_STORE = 0x25;
    public static final int RECOVER_STORE_REPLY = 0xA5;
    public static final int PRESERVED_REQUEST = 0x26;
    public static final int PRESERVED_RECORD = 0x27;
    public static final int PRESERVED_END = 0x28;
    /** Recovery fences a server: records numbered below {@code seq} (earlier switch incarnations) are refused. */
    public static final int SEQ_FENCE = 0x29;
    public static final int SEQ_FENCE_REPLY = 0xA9;
    /**
     * Admission asks a key's server for its record's seq (the fill floor of FarReach's FR-11): the reply's
     * {@code seq} is the seq a read would report, and {@code reqId} names the admission.
     */
    public static final int SEQ_PROBE = 0x2A;
    public static final int SEQ_PROBE_REPLY = 0xAA;

    // flags
    /** Set by the switch on replies it generated (cache hits). */
    public static final int FLAG_FROM_SWITCH = 0x01;
    /** The record carried is a tombstone (a delete), not a value. */
    public static final int FLAG_DELETED = 0x02;
    /** Set by the switch on a forwarded request whose key its Count-Min Sketch found hot (§3.2). */
    public static final int FLAG_HOT = 0x04;

    private KvOp() {}

    public static int replyOf(int requestOp) {
        return requestOp | 0x80;
    }

    public static String name(int op) {
        return switch (op) {
            case GET -> "GET";
            case PUT -> "PUT";
            case DEL -> "DEL";
            case GET_REPLY -> "GET_REPLY";
            case PUT_REPLY -> "PUT_REPLY";
            case DEL_REPLY -> "DEL_REPLY";
            case GET_FOR_CACHE -> "GET_FOR_CACHE";
            case PUT_SEQ -> "PUT_SEQ";
            case DEL_SEQ -> "DEL_SEQ";
            case GET_EMBED -> "GET_EMBED";
            case GET_FOR_CACHE_REPLY -> "GET_FOR_CACHE_REPLY";
            case HOT_REPORT -> "HOT_REPORT";
            case EVICT_STORE -> "EVICT_STORE";
            case EVICT_STORE_REPLY -> "EVICT_STORE_REPLY";
            case SNAPSHOT_ORIGINAL -> "SNAPSHOT_ORIGINAL";
            case SNAPSHOT_DONE -> "SNAPSHOT_DONE";
            case RECOVER_STORE -> "RECOVER_STORE";
            case RECOVER_STORE_REPLY -> "RECOVER_STORE_REPLY";
            case PRESERVED_REQUEST -> "PRESERVED_REQUEST";
            case PRESERVED_RECORD -> "PRESERVED_RECORD";
            case PRESERVED_END -> "PRESERVED_END";
            case SEQ_FENCE -> "SEQ_FENCE";
            case SEQ_FENCE_REPLY -> "SEQ_FENCE_REPLY";
            case SEQ_PROBE -> "SEQ_PROBE";
            case SEQ_PROBE_REPLY -> "SEQ_PROBE_REPLY";
            default -> String.format("0x%02x", op);
        };
    }
}
