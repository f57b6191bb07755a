package dev.innet.farreach.trace;


/**
 * The trace events FarReach's nodes emit where actions of specs/farreach/FarReach.tla happen (trace
 * validation, docs/conformance.md): their kinds, and how keys, values and records are written. The
 * converter in impl-java/tracecheck reads exactly these. Values are written as text when printable (the
 * workload's values are), else as {@code 0x} and hex, so every distinct value stays distinct.
 */
public final class FarReachTraceEvents {
    private FarReachTraceEvents() {}

    // clients (FarReachClient)
    /** A write request sent (attempt 1) or retransmitted: key, value, reqId, attempt, server. */
    public static final String CLIENT_WRITE = "clientWrite";
    /** A read request sent or retransmitted: key, reqId, attempt, server. */
    public static final String CLIENT_READ = "clientRead";
    /** The reply that ended the operation: op (write/read), key, reqId, status, fromSwitch, seq, value. */
    public static final String CLIENT_REPLY = "clientReply";
    /** The operation abandoned after its last timeout: op, key, reqId. */
    public static final String CLIENT_GAVE_UP = "clientGaveUp";

    // servers (FarReachServer)
    /** PUT_SEQ applied (or ignored as older): client, reqId, key, seq, value, then the stored record. */
    public static final String SERVER_PUT = "serverPut";
    /** GET / GET_FOR_CACHE / GET_EMBED answered: client, reqId, key, op, the record returned. */
    public static final String SERVER_GET = "serverGet";
    /** EVICT_STORE applied: key, the record carried, the stored record. */
    public static final String SERVER_EVICT_STORE = "serverEvictStore";
    /** RECOVER_STORE applied: key, the record carried, the stored record. */
    public static final String SERVER_RECOVER_STORE = "serverRecoverStore";
    /** SEQ_PROBE answered: key, reqId (the admission's), seq (the fill floor it reports). */
    public static final String SERVER_PROBE = "serverProbe";

    // controller (Admit, Evict, Snap, Recover)
    /** Admission step (2): the key and the reported record are installed, invalid and outdated. */
    public static final String ADMIT_INSTALL = "admitInstall";
    /** Admission: the probe's reply taken; key, seq = the record's fill floor (FR-11). */
    public static final String ADMIT_FLOOR = "admitFloor";
    /** Admission step (3): the record is valid. */
    public static final String ADMIT_VALIDATE = "admitValidate";
    /** Eviction step (1): the record is marked to-be-evicted. */
    public static final String EVICT_START = "evictStart";
    /** Eviction step (2): the record loaded and sent to its server (EVICT_STORE). */
    public static final String EVICT_STORE = "evictStore";
    /** Eviction step (3): acknowledged by the server; the record is removed from the cache. */
    public static final String EVICT_FINISH = "evictFinish";
    /** Snapshot point: the switch watches first updates from here on. */
    public static final String SNAP_START = "snapStart";
    /**
     * Snapshot load of one key cached at the snapshot point: loaded = true with the record (rec*), or false
     * when the record changed since the point (its original, reported by the switch, stands instead).
     */
    public static final String SNAP_LOAD = "snapLoad";
    /** Snapshot abandoned (an original did not arrive in time); the previous snapshot stays. */
    public static final String SNAP_ABANDONED = "snapAbandoned";
    /** Snapshot kept: records = the number of records it holds. */
    public static final String SNAP_FINISH = "snapFinish";
    /** A restarted switch seen by the controller (its registers were lost). */
    public static final String SWITCH_CRASH_SEEN = "switchCrashSeen";
    /** Zero-loss recovery finished; clients are served again. */
    public static final String RECOVER_DONE = "recoverDone";
}
