package dev.innet.rack.switchos;

import java.math.BigInteger;

/**
 * The control-plane names of p4/*.p4 (docs/p4-programs.md). Only here, so a rename in the P4 source is
 * one change on the Java side, and the names a controller uses are checked against a loaded program by
 * the switch OS at start-up (an unknown name is a ControlException, never a silent no-op).
 */
public final class ControlNames {
    public static final String IPV4_FORWARD = "MyIngress.ipv4_forward";
    public static final String SET_EGRESS_PORT = "MyIngress.set_egress_port";
    public static final String CACHE_LOOKUP = "MyIngress.cache_lookup";
    public static final String SET_CACHE_INDEX = "MyIngress.set_cache_index";

    public static final String RECORD_VALID = "MyIngress.record_valid";
    public static final String RECORD_LATEST = "MyIngress.record_latest";
    public static final String RECORD_DELETED = "MyIngress.record_deleted";
    public static final String RECORD_EVICTING = "MyIngress.record_evicting";
    public static final String RECORD_SEQ = "MyIngress.record_seq";
    public static final String RECORD_VALLEN = "MyIngress.record_vallen";
    public static final String RECORD_SAVED_EPOCH = "MyIngress.record_saved_epoch";
    public static final String CACHED_FREQUENCY = "MyIngress.cached_frequency";
    public static final String SNAPSHOT_EPOCH = "MyIngress.snapshot_epoch";
    public static final String RECOVERING = "MyIngress.recovering";
    public static final String SEQ_COUNTER = "MyIngress.seq_counter";
    public static final String SAMPLE_MASK = "MyIngress.sample_mask";
    public static final String HOT_THRESHOLD = "MyIngress.hot_threshold";
    public static final String DROP_COUNT = "MyIngress.drop_count";
    public static final int VALUE_WORDS = 16;
    public static final int CMS_ROWS = 4;
    public static final int CACHE_CAPACITY = 16384;
    public static final int SEQ_SLOTS = 32768;
    public static final int CPU_CLONE_SESSION = 100;

    private ControlNames() {}

    public static String valueWord(int i) {
        return String.format("MyIngress.value_word_%02d", i);
    }

    public static String cmsRow(int r) {
        return "MyIngress.cms_row_" + r;
    }

    /** A 16-byte wire key as the unsigned 128-bit match value. */
    public static BigInteger keyValue(byte[] key) {
        return new BigInteger(1, key);
    }
}
