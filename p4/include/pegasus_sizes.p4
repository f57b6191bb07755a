/*
 * pegasus.p4: every table size, register size and state width of the Pegasus
 * coherence directory, with the reason for each (Pegasus, OSDI'20, §6, §8).
 * Derived numbers are computed from these, never repeated. The forwarding
 * table and drop accounting sizes are the rack's (sizes.p4).
 */
#ifndef INNET_PEGASUS_SIZES_P4
#define INNET_PEGASUS_SIZES_P4

/* Servers in one rack. The replica set is a bitmap of server indices
 * (Fig. 6 "a bitmap indicating which servers are currently in each replica
 * set"); 32 servers fit one 32-bit register, the paper's rack has 16 (§9.1). */
const bit<32> MAX_SERVERS = 32;
typedef bit<32> server_bitmap_t;
typedef bit<8>  server_idx_t;            /* 0..MAX_SERVERS-1 */
const int SERVER_ADDRESS_TABLE_SIZE = 32; /* = MAX_SERVERS: one address per server index */
const int RACK_SERVERS_TABLE_SIZE = 32;   /* = MAX_SERVERS: this rack's server addresses (§7 gate) */

/* Directory slots. The paper replicates the O(n log n) hottest keys (§4.2);
 * for n = 32, n log2 n = 160. 1024 leaves room for the controller's churn
 * (entries waiting for their table delete) and is a power of two, so every
 * dir_idx_t value is a valid register index. */
typedef bit<10> dir_idx_t;
const bit<32> DIR_SLOTS = 1024;
const int RKEYS_TABLE_SIZE = 1024;       /* = DIR_SLOTS */

/* The server-ID lists of all keys in one register array, key k's i-th
 * replica at k * MAX_SERVERS + i (§8.1 "the index is calculated as
 * k * n + i"). */
const bit<32> RSET_LIST_ENTRIES = 32768; /* = DIR_SLOTS * MAX_SERVERS */

/* Versions are the innet header's 32-bit seq (wire-format.md §2). The paper
 * uses 64 bits (§6.6 "Version number overflow"); 32 bits do not wrap within
 * any run innet performs (documented limit, docs/pegasus.md). */
typedef bit<32> version_t;

/* Server load as reported in reply headers (reverse telemetry, §4.4): the
 * server's outstanding work, saturating at 65535. */
typedef bit<16> load_t;

/* Statistics engine (§8.1): a Count-Min Sketch over sampled requests for
 * unreplicated keys, 4 rows as NetCache and FarReach use, 64K counters per
 * row; per-key READ and WRITE counters for replicated keys. */
const bit<32> PEG_CMS_WIDTH = 65536;
typedef bit<32> peg_count_t;
/* Reports when the sampled estimate reaches this value and the controller
 * has not set one (register value 0). */
const peg_count_t PEG_DEFAULT_HOT_THRESHOLD = 16;

/* Pegasus's own drop reasons, counted in pegasus_drop_count (the rack's
 * drop_count has no free index beyond DROP_PEGASUS, see pegasus_headers.p4). */
const bit<32> PEG_DROP_REASON_COUNT = 5;   /* > largest PEG_DROP_* */

#endif /* INNET_PEGASUS_SIZES_P4 */
