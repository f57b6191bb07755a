package dev.innet.pegasus.controller;

/** The control-plane names of p4/pegasus.p4 (docs/pegasus.md "Control-plane interface"). */
final class DirectoryNames {
    static final String RKEYS = "MyIngress.rkeys";
    static final String SET_DIR_INDEX = "MyIngress.set_dir_index";
    static final String SERVER_ADDRESS = "MyIngress.server_address";
    static final String SET_SERVER_ADDRESS = "MyIngress.set_server_address";
    static final String VER_NEXT = "MyIngress.ver_next";
    static final String KEY_STATE = "MyIngress.key_state";
    static final String VER_COMPLETED = "MyIngress.ver_completed";
    static final String RSET_BITMAP = "MyIngress.rset_bitmap";
    static final String WRITE_PAUSED = "MyIngress.write_paused";
    static final String REP_FACTOR = "MyIngress.rep_factor";
    static final String READ_COUNT = "MyIngress.read_count";
    static final String WRITE_COUNT = "MyIngress.write_count";
    static final String SERVER_COUNT = "MyIngress.server_count";
    static final String HOT_THRESHOLD = "MyIngress.peg_hot_threshold";
    static final String SWITCH_OPEN = "MyIngress.switch_open";
    static final String RACK_GATE = "MyIngress.rack_gate";
    static final String RACK_SERVERS = "MyIngress.rack_servers";
    static final String RACK_MEMBER = "MyIngress.rack_member";
    static final String[] CMS_ROWS = {"MyIngress.peg_cms_0", "MyIngress.peg_cms_1", "MyIngress.peg_cms_2",
            "MyIngress.peg_cms_3"};
    /** PEG_CPU_CLONE_SESSION */
    static final int CLONE_SESSION = 100;

    /** KEY_* of pegasus_headers.p4 */
    static final int KEY_INACTIVE = 0;
    static final int KEY_ACTIVE = 1;
    static final int KEY_MARKED = 2;

    private DirectoryNames() {}
}
