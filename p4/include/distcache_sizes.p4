/*
 * distcache.p4: every table size, register size, hash salt and state width
 * of the DistCache data plane (DistCache, FAST'19, §4.2 and §5), with the
 * reason for each. Derived numbers are computed from these, never repeated.
 * The rack's shared sizes (forwarding table, drop accounting, key and value
 * widths) are in sizes.p4.
 */
#ifndef INNET_DISTCACHE_SIZES_P4
#define INNET_DISTCACHE_SIZES_P4

/* Cache records per cache switch. The paper's Tofino cache has 64K slots per
 * stage (§5); 16K records of up to 128 bytes, as netcache.p4 and farreach.p4
 * keep, leave the simulated racks' few hundred hot keys ample room. */
typedef bit<14> dc_idx_t;
const bit<32> DC_CACHE_CAPACITY = 16384;   /* = 2^14: every dc_idx_t value is an index */
const int DC_CACHE_LOOKUP_TABLE_SIZE = 16384;

/* Cache nodes are numbered 1..255 (0 = none) in the extension's node fields.
 * The client ToR keeps one load per node: the paper's "register array with 256
 * 32-bit slots to store the load of cache switches" (§5). */
typedef bit<8> dc_node_t;
const bit<32> DC_MAX_NODES = 256;
const int DC_NODE_FORWARD_TABLE_SIZE = 256;   /* one route per node */

/* Layers, as the extension's layer field and the switch's dc_layer register
 * carry them. */
const bit<8> DC_LAYER_NONE = 0;
const bit<8> DC_LAYER_UPPER = 1;           /* spine switches */
const bit<8> DC_LAYER_LOWER = 2;           /* storage racks' ToR (leaf) switches */

/* Upper-layer partition: bucket = CRC-32 of (16 key bytes ++ DC_UPPER_SALT)
 * mod DC_UPPER_BUCKETS, node = upper_partition[bucket]. Buckets are the
 * virtual nodes of §4.4's remapping: the controller moves a failed switch's
 * buckets to the others without touching the rest. 1024 buckets give each of
 * up to 32 spine switches 32 of them. */
const bit<32> DC_UPPER_BUCKETS = 1024;
const bit<32> DC_UPPER_SALT = 0x2545F491;

/* Lower-layer partition: a key's lower copy is in its storage server's rack
 * ToR (§4.1), so the partition is the servers' own placement (a consistent-
 * hash ring, independent of the CRC above) composed with the control plane's
 * server -> rack table. One entry per server. */
const int DC_SERVER_RACK_TABLE_SIZE = 256;

/* Load telemetry (§4.2): packets the switch served as a cache node since the
 * agent last reset the counter; replies carry it saturated to 16 bits. */
typedef bit<32> dc_load_count_t;
typedef bit<16> dc_load_t;
const dc_load_count_t DC_LOAD_SATURATED = 0xFFFF;

/* Versions are the innet header's 32-bit seq; insertion tokens are 32 bits. */
typedef bit<32> dc_version_t;
typedef bit<32> dc_token_t;

/* Heavy-hitter detector of the cache node (§4.2 "HH detector", §5: a
 * Count-Min sketch with 4 arrays of 64K slots), over sampled reads of
 * uncached keys routed to this node. */
const bit<32> DC_CMS_WIDTH = 65536;
typedef bit<32> dc_count_t;
/* A report is cloned when the estimate reaches this value and the agent has
 * not set one (register value 0). */
const dc_count_t DC_DEFAULT_HOT_THRESHOLD = 16;

/* update_outcome counters: phase-2 updates and fills taken / refused. */
const bit<32> DC_OUTCOMES = 2;

#endif /* INNET_DISTCACHE_SIZES_P4 */
