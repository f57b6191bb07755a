/*
 * distcache.p4: the DistCache extension of the innet header, DistCache's ops
 * and the metadata its ingress steps share (docs/distcache.md "Wire format").
 * The Ethernet, IPv4, UDP, innet header and value word types come from
 * headers.p4.
 */
#ifndef INNET_DISTCACHE_HEADERS_P4
#define INNET_DISTCACHE_HEADERS_P4

/* wire-format.md §1: DistCache's UDP port (the paper's "reserved L4 port", §4.1) */
const bit<16> UDP_PORT_DISTCACHE = 5012;

/* The extension follows the 32-byte innet header (extlen = 12); the value,
 * if any, follows the extension. */
const bit<16> DC_EXT_BYTES = 12;
header distcache_ext_h {
    bit<8>     layer;       /* GET: 0 = not routed yet, else the layer the client ToR chose;
                               INV, INV_ACK, UPD, FETCH, HOT: the copy's layer;
                               a GET_REPLY from a cache switch: the layer that answered */
    dc_node_t  node;        /* the copy's cache node (0: not resolved yet; on a GET after a miss: 0) */
    dc_node_t  upper_node;  /* replies: the upper-layer switch that stamped upper_load (0: none) */
    dc_node_t  lower_node;  /* replies: the lower-layer switch that stamped lower_load (0: none) */
    dc_load_t  upper_load;
    dc_load_t  lower_load;
    dc_token_t token;       /* UPD: 0 = phase 2, else the insertion it fills; FETCH: the insertion's token */
}

/* Ops on UDP 5012 (docs/distcache.md). Client ops and their replies are the
 * key-value family's numbers (defines.p4). */
const bit<8> DC_INV = 0x31;        /* server -> copy: phase 1, seq = the write's version */
const bit<8> DC_UPD = 0x32;        /* server -> copy: phase 2 (token 0) or an insertion's fill */
const bit<8> DC_FETCH = 0x33;      /* agent -> server: fill my inserted copy (token) */
const bit<8> DC_HOT = 0x34;        /* cache switch -> agent (clone): an uncached key of my partition is hot */
const bit<8> DC_INV_ACK = 0xB1;    /* copy -> server: invalidated (or not cached), seq = the version */

/* Clone session of hot-key reports; the control plane points it at the port
 * towards the switch's agent. */
const bit<32> DC_CPU_CLONE_SESSION = 100;

/* update_outcome indices */
const bit<32> DC_OUTCOME_TAKEN = 0;
const bit<32> DC_OUTCOME_REFUSED = 1;

struct distcache_headers_t {
    ethernet_h      ethernet;
    ipv4_h          ipv4;
    udp_h           udp;
    innet_h         innet;
    distcache_ext_h dc;
    value_word_h[VALUE_WORDS_MAX] value_words;
}

struct distcache_metadata_t {
    bit<8>       drop_reason;       /* DROP_* (ingress_forwarding.p4 counts it) */
    bool         is_distcache;      /* innet header + extension on UDP 5012 */
    bool         value_parsed;      /* the whole value is in hdr.value_words (vallen <= 128) */
    bit<8>       value_words_left;  /* parser loop counter */
    /* this switch's role (registers the control plane sets) */
    dc_node_t    my_node;           /* 0: not a cache switch */
    bit<8>       my_layer;
    bool         routes_reads;      /* a client rack's ToR: power-of-two-choices */
    /* partition resolution */
    ipv4_addr_t  server_addr;       /* the key's storage server: a GET's destination, an INV/UPD's source */
    dc_node_t    upper_candidate;   /* the key's upper-layer node (0: none) */
    dc_node_t    lower_candidate;   /* the key's lower-layer node (0: none) */
    /* cache lookup */
    bool         cache_hit;         /* cache_lookup has the key */
    dc_idx_t     cache_idx;
    /* forwarding decision: by node_forward (targeted at another node) or by IPv4 */
    bool         route_to_node;
    bool         consumed;          /* an update that ends at this switch */
    /* hot-key report carried by the clone (field list 1) */
    @field_list(1) dc_node_t report_node;
    @field_list(1) bit<8>    report_layer;
}

#endif /* INNET_DISTCACHE_HEADERS_P4 */
