package dev.innet.visibility.wire;

/**
 * Ops, flags and statuses of the visibility layer on UDP 5011 (docs/visibility.md "Wire format"; the
 * P4 side is p4/include/visibility_sizes.p4). A reply op is its request op with bit 7 set.
 */
public final class VisOp {
    public static final int PORT = 5011;

    // client path (the switch acts on WRITE_REPLY, META_UPDATE_REPLY, CLEAR and READ)
    public static final int WRITE = 0x41;
    public static final int WRITE_REPLY = 0xC1;
    public static final int META_ASYNC = 0x42;
    public static final int META_UPDATE = 0x43;
    public static final int META_UPDATE_REPLY = 0xC3;
    public static final int META_HELD = 0xC4;
    public static final int CLEAR = 0x45;
    public static final int CLEAR_ACK = 0xC5;
    public static final int READ = 0x46;
    public static final int READ_REPLY = 0xC6;
    public static final int DATA_READ = 0x47;
    public static final int DATA_READ_REPLY = 0xC7;

    // recovery and repair between the switch OS, the metadata node and the data nodes (forwarded as is)
    /** metadata node -> data node: send every key's newest log entry (rebuild, §III-E 2) */
    public static final int REBUILD = 0x50;
    public static final int REBUILD_ENTRIES = 0xD0;
    public static final int REBUILD_END = 0xD1;
    /** switch OS -> data node: every slot's last timestamp (MaxTs reload, §III-E 3) */
    public static final int TIMESTAMPS = 0x52;
    public static final int TIMESTAMP_ENTRIES = 0xD2;
    public static final int TIMESTAMPS_END = 0xD3;
    /** switch OS -> metadata node: drain and resynchronise with the data nodes (§III-E 3) */
    public static final int RESYNC = 0x54;
    public static final int RESYNC_DONE = 0xD4;
    /** switch OS -> data node: re-send the asynchronous update of a stale entry (§III-E 1) */
    public static final int RESEND_ASYNC = 0x55;

    public static final int FLAG_FROM_SWITCH = 0x01;
    /** WRITE: the write is a delete (a tombstone entry) */
    public static final int FLAG_TOMBSTONE = 0x02;
    /** WRITE_REPLY: the switch installed the metadata; the write is committed */
    public static final int FLAG_VISIBLE = 0x08;
    /** WRITE (file system): create the path; refused if it exists */
    public static final int FLAG_CREATE = 0x10;
    /**
     * WRITE_REPLY (file system): the create found the path; the reply carries the path's newest entry (its
     * timestamp and metadata), which the switch and the client treat as any write reply, so the existence
     * is committed before the client reports it (docs/visibility.md, "The second application")
     */
    public static final int FLAG_EXISTS = 0x20;

    public static final int STATUS_OK = 0;
    public static final int STATUS_NOT_FOUND = 1;
    public static final int STATUS_BAD_REQUEST = 2;
    public static final int STATUS_UNAVAILABLE = 6;
    /** DATA_READ: the log entry holds another key (hash collision, §III-B 2): retry the read */
    public static final int STATUS_KEY_MISMATCH = 7;

    /** Metadata the switch can hold (p4 VIS_META_MAX_BYTES). */
    public static final int MAX_SWITCH_METADATA_BYTES = 96;

    private VisOp() {}
}
