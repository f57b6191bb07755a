/*
 * innet P4 data planes: every table size, register size and state width, with
 * the reason for each. Derived numbers are computed from these, never repeated.
 */
#ifndef INNET_SIZES_P4
#define INNET_SIZES_P4

/* ---- forwarding -------------------------------------------------------- */

/* One entry per host of a rack: h = 1..253 plus the CPU/controller address
 * 10.0.0.254 (wire-format.md "Addressing in a rack"); 256 covers the /24. */
const int IPV4_FORWARD_TABLE_SIZE = 256;        /* table sizes are integers (P4-16 "size" property) */

/* ---- the cache --------------------------------------------------------- */

/* Cache index width. The paper caches 10,000 records (FarReach §5.1, "in-switch
 * cache size as 10,000 records"); 2^14 = 16,384 is the next power of two, so
 * every value of cache_idx_t is a valid register index and a control plane
 * can never install an out-of-range index. */
typedef bit<14> cache_idx_t;
const bit<32> CACHE_CAPACITY = 16384;        /* = 2^14, entries of every per-record register */
const int CACHE_LOOKUP_TABLE_SIZE = 16384;   /* one entry per record index */

/* Keys are a fixed 16 bytes (wire-format.md §2, FarReach §3.1 "Design assumptions"). */
typedef bit<128> kv_key_t;

/* Values: up to 128 bytes are cached (wire-format.md §2, FarReach §3.1), as
 * 16 words of 8 bytes. The paper spreads them over 32 register arrays of 4
 * bytes (FarReach §4.2, one Tofino register is 4 bytes); v1model registers may
 * be 64 bits wide, so 16 arrays of bit<64> hold the same 128 bytes. */
typedef bit<64> value_word_t;
const bit<32> VALUE_WORDS_MAX = 16;
const bit<16> MAX_CACHED_VALUE_BYTES = 128;  /* = VALUE_WORDS_MAX * VALUE_WORD_BYTES */

typedef bit<32> seq_t;                       /* wire-format.md §2: seq is 32 bits */
typedef bit<16> vallen_t;

/* ---- sequence numbers (FarReach §4.2) ---------------------------------- *
 * "we maintain a register array with 32K registers. We map the write requests
 * of different keys into different registers by hashing": one counter per
 * hash slot, so every key's sequence numbers increase monotonically. */
const bit<32> SEQ_SLOTS = 32768;
/* farreach.p4's per-client write registers: indexed by the low byte of the
 * client's IPv4 address (a rack host number, wire-format.md addressing) */
const bit<32> CLIENT_SLOTS = 256;
/* A switch incarnation (or sequence range) numbers from a base that is a
 * multiple of 2^24 (kv SequenceBase); within it a slot may assign up to
 * base + SEQ_RANGE_LAST. From SEQ_HIGH_WATER on, farreach.p4 asks the
 * controller to advance the range. */
const bit<32> SEQ_RANGE_MASK = 0x00FFFFFF;
const bit<32> SEQ_RANGE_LAST = 0x00FFFFFF;
const bit<32> SEQ_HIGH_WATER = 0x00FFF000;
/* farreach.p4's and netcache.p4's record_fill_floor before the controller's
 * probe returns: no reply fills the record. No seq reaches it: the last range's slots stop at
 * base + SEQ_RANGE_LAST - 1 = 0xFFFFFFFE. */
const bit<32> FLOOR_UNKNOWN = 0xFFFFFFFF;

/* ---- frequency tracking (FarReach §3.2, §4.2; NetCache's design) ------- *
 * Count-Min Sketch "with 4 rows as suggested in [NetCache]. Each row
 * corresponds to a register array with 64K registers" (FarReach §4.2). */
const bit<32> CMS_ROWS = 4;                  /* documentation: the code has one register per row */
const bit<32> CMS_WIDTH = 65536;
typedef bit<32> frequency_t;                 /* one Tofino register is 4 bytes (§4.2) */

/* Hot threshold when the control plane has not set one (register value 0):
 * "the pre-defined threshold as 20 requests" (FarReach §5.1). */
const frequency_t DEFAULT_HOT_THRESHOLD = 20;

/* ---- snapshots (FarReach §3.4) ----------------------------------------- */

/* Snapshot epochs: 0 = no snapshot in progress. 32 bits do not wrap within
 * any run innet performs (same bound as seq). */
typedef bit<32> snapshot_epoch_t;

/* ---- accounting -------------------------------------------------------- */

const bit<32> DROP_REASON_COUNT = 16;        /* > largest DROP_* in defines.p4 */

#endif /* INNET_SIZES_P4 */
