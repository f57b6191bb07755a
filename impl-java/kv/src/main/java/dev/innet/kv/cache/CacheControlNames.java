package dev.innet.kv.cache;

import java.math.BigInteger;

/**
 * The control-plane names netcache.p4 and farreach.p4 share (docs/p4-programs.md): the key table, the
 * record registers both keep, the popularity counters. Only here, so a rename in the P4 source is one
 * change on the Java side; an unknown name is a ControlException from the switch, never a silent no-op.
 * FarReach's own names are in its module.
 */
public final class CacheControlNames {
    public static final String CACHE_LOOKUP = "MyIngress.cache_lookup";
    public static final String SET_CACHE_INDEX = "MyIngress.set_cache_index";
    public static final String RECORD_VALID = "MyIngress.record_valid";
    public static final String RECORD_SEQ = "MyIngress.record_seq";
    public static final String RECORD_VALLEN = "MyIngress.record_vallen";
    /**
     * FarReach's FR-11 and NetCache's NC-7/NC-8 fill rule (the specs' FillBySeen): the highest seq of the cached
     * key seen pass since its admission.
     */
    public static final String RECORD_SEEN_SEQ = "MyIngress.record_seen_seq";
    /** The same rule: the key's server record's seq after the install (the probe), or {@link #FLOOR_UNKNOWN}. */
    public static final String RECORD_FILL_FLOOR = "MyIngress.record_fill_floor";
    /** p4/include/sizes.p4 FLOOR_UNKNOWN: no reply makes the record valid/latest until the probe returns. */
    public static final long FLOOR_UNKNOWN = 0xFFFFFFFFL;
    public static final String CACHED_FREQUENCY = "MyIngress.cached_frequency";
    public static final String HOT_THRESHOLD = "MyIngress.hot_threshold";
    public static final int VALUE_WORDS = 16;
    public static final int CMS_ROWS = 4;
    public static final int CACHE_CAPACITY = 16384;

    private CacheControlNames() {}

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
