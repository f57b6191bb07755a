package dev.innet.visibility.controller;

/** Control-plane names of p4/visibility.p4 (its header comment lists the interface). */
public final class SwitchNames {
    public static final String READY = "MyIngress.vis_ready";
    public static final String MDN_HOST = "MyIngress.vis_mdn_host";
    public static final String VALID = "MyIngress.vis_valid";
    public static final String FINGERPRINT = "MyIngress.vis_fp";
    public static final String CUR_TS = "MyIngress.vis_cur_ts";
    public static final String MAX_TS = "MyIngress.vis_max_ts";
    public static final String META_WORD_0 = "MyIngress.vis_meta_word_00";
    public static final String META_WORD_1 = "MyIngress.vis_meta_word_01";
    /** VIS_META_CLONE_SESSION in p4/include/visibility_sizes.p4 */
    public static final int META_CLONE_SESSION = 101;
    /** VIS_SLOTS */
    public static final int SLOTS = 65536;

    private SwitchNames() {}
}
