package dev.innet.pegasus.wire;

/**
 * Pegasus's op codes on UDP 5010 (docs/pegasus.md "Wire format"; the same numbers as
 * p4/include/pegasus_headers.p4). Replies carry the request op with bit 7 set.
 */
public final class PegasusOp {
    public static final int PORT = 5010;

    // clients -> servers (through the switch)
    public static final int READ = 0x01;
    public static final int WRITE = 0x02;
    public static final int DELETE = 0x03;
    /** Controller -> a key's home: raise the stored version to ver_completed and copy to fwd (§6.3). */
    public static final int VIRTUAL_WRITE = 0x04;
    /** Server -> server: a write's value and version, forwarded by its detector or a virtual write. */
    public static final int REPLICATE = 0x05;
    public static final int READ_REPLY = 0x81;
    public static final int WRITE_REPLY = 0x82;
    public static final int DELETE_REPLY = 0x83;
    public static final int VIRTUAL_WRITE_REPLY = 0x84;
    public static final int REPLICATE_REPLY = 0x85;

    // controller <-> switch (packet-out, answered to the CPU port) and switch -> controller (clones)
    public static final int ADD_KEY = 0x30;
    public static final int MARK_REMOVE = 0x31;
    public static final int HOT_KEY = 0x32;
    public static final int KEY_REMOVED = 0x33;
    public static final int ADD_KEY_REPLY = 0xB0;
    public static final int MARK_REMOVE_REPLY = 0xB1;

    // controller <-> servers: client-table migration (§6.4)
    /** Controller -> server: the client-table entries for a key (reply carries them). */
    public static final int TABLE_READ = 0x40;
    /** Controller -> server: merge these entries into the table (latest request per client wins). */
    public static final int TABLE_MERGE = 0x41;
    /** Controller -> server: the highest version the server stores (switch recovery). */
    public static final int MAX_VERSION = 0x42;
    /**
     * Configuration service -> servers (UDP 5010) and clients ({@code KvOp.CONTROL_PORT}): the chains' new
     * view (§7 reconfiguration): epoch in seq, {@code ChainView.encode} as the value. Acknowledged with
     * the epoch the node now holds.
     */
    public static final int CHAIN_CONFIG = 0x43;
    public static final int TABLE_READ_REPLY = 0xC0;
    public static final int TABLE_MERGE_REPLY = 0xC1;
    public static final int MAX_VERSION_REPLY = 0xC2;
    public static final int CHAIN_CONFIG_REPLY = 0xC3;

    /** The record carried is a tombstone (a delete). */
    public static final int FLAG_DELETED = 0x02;

    private PegasusOp() {}

    public static int replyOf(int op) {
        return op | 0x80;
    }

    public static boolean isWrite(int op) {
        return op == WRITE || op == DELETE;
    }
}
