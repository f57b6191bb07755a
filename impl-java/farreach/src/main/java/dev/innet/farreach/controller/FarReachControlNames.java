package dev.innet.farreach.controller;

/**
 * The control-plane names only p4/farreach.p4 has (docs/p4-programs.md §5); the ones it shares with
 * netcache.p4 are {@link dev.innet.kv.cache.CacheControlNames}.
 */
public final class FarReachControlNames {
    public static final String RECORD_LATEST = "MyIngress.record_latest";
    public static final String RECORD_DELETED = "MyIngress.record_deleted";
    public static final String RECORD_EVICTING = "MyIngress.record_evicting";
    public static final String RECORD_SAVED_EPOCH = "MyIngress.record_saved_epoch";
    public static final String SNAPSHOT_EPOCH = "MyIngress.snapshot_epoch";
    public static final String RECOVERING = "MyIngress.recovering";
    public static final String SEQ_RANGE_EXHAUSTED = "MyIngress.seq_range_exhausted";
    public static final String CLIENT_WRITE_REQ_ID = "MyIngress.client_write_req_id";
    public static final String CLIENT_WRITE_SEQ = "MyIngress.client_write_seq";
    public static final int CPU_CLONE_SESSION = 100;

    private FarReachControlNames() {}
}
