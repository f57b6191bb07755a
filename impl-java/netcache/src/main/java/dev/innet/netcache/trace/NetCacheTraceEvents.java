package dev.innet.netcache.trace;


/**
 * The trace events NetCache's nodes emit where actions of specs/netcache/NetCache.tla happen (trace
 * validation, docs/conformance.md "Trace validation", NetCache): their kinds, and how keys, values and
 * records are written. The converter in impl-java/tracecheck (NetCacheTraceConverter) reads exactly these.
 *
 * <p>The switch runs the P4 program and emits nothing; its steps are seen where they show: a request at
 * the client that sent it, a reply at the client it reaches (every reply passes the switch on its way,
 * and client links are clean), the controller's table writes at the controller.
 */
public final class NetCacheTraceEvents {
    private NetCacheTraceEvents() {}

    // clients (NetCacheClient): ClientWrite, ClientReadHit/ClientReadForward, the reply steps, ClientGiveUp
    /** A write request sent: key, value, reqId, attempt (delete: value "" and delete true). */
    public static final String CLIENT_WRITE = "clientWrite";
    /** A read request sent or retransmitted: key, reqId, attempt. */
    public static final String CLIENT_READ = "clientRead";
    /** The reply that ended the operation: op (write/read), key, reqId, status, fromSwitch, seq, value. */
    public static final String CLIENT_REPLY = "clientReply";
    /**
     * A reply that ended nothing (late, or a duplicate), seen at the client after the switch acted on it:
     * op (write/read), key, reqId, status, seq, value.
     */
    public static final String CLIENT_STALE_REPLY = "clientStaleReply";
    /** The operation abandoned after its last timeout: op, key, reqId. */
    public static final String CLIENT_GAVE_UP = "clientGaveUp";

    // servers (NetCacheServer): ServerPut, ServerGet, ServerProbe
    /** PUT_SEQ handled: client, reqId, key, the record carried (rec*), the record stored afterwards (stored*). */
    public static final String SERVER_PUT = "serverPut";
    /** GET / GET_FOR_CACHE answered: client, reqId, key, op, the record returned (reply*), stored*. */
    public static final String SERVER_GET = "serverGet";
    /** An admission's SEQ_PROBE answered (the spec's ServerProbe): key, reqId, seq (the record's seq held). */
    public static final String SERVER_PROBE = "serverProbe";

    // controller (NetCacheController): Admit, AdmitFloor, Evict, SwitchRestart
    /**
     * The key's lookup entry installed (slot invalid, record_seq 0, nothing seen): key, index, floor (the fill
     * floor known without a probe, for a preloaded record; -1: the admission probes the server).
     */
    public static final String ADMIT = "admit";
    /** The probe's answer written as the record's fill floor (the spec's AdmitFloor): key, seq. */
    public static final String ADMIT_FLOOR = "admitFloor";
    /** Eviction: the key's lookup entry deleted: key, index. */
    public static final String EVICT = "evict";
    /**
     * A fresh switch programmed (forwarding installed): bringUp (1 = the first switch), seqBase (the
     * floor its sequence counters were raised to; 0 = not raised).
     */
    public static final String SWITCH_PROGRAMMED = "switchProgrammed";
}
