/*
 * innet P4 data planes: header types (byte for byte docs/wire-format.md) and
 * the metadata shared by the controls.
 */
#ifndef INNET_HEADERS_P4
#define INNET_HEADERS_P4

typedef bit<48> mac_addr_t;
typedef bit<32> ipv4_addr_t;

/* wire-format.md §1: Ethernet II, 14 bytes */
header ethernet_h {
    mac_addr_t dst_addr;
    mac_addr_t src_addr;
    bit<16>    ether_type;
}

/* wire-format.md §1: IPv4 without options, 20 bytes (RFC 791) */
header ipv4_h {
    bit<4>      version;
    bit<4>      ihl;
    bit<8>      dscp_ecn;
    bit<16>     total_len;
    bit<16>     identification;
    bit<3>      flags;          /* reserved, DF, MF (MF is the low bit) */
    bit<13>     frag_offset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     hdr_checksum;
    ipv4_addr_t src_addr;
    ipv4_addr_t dst_addr;
}

/* wire-format.md §1: UDP, 8 bytes; checksum 0 = not computed */
header udp_h {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> length;
    bit<16> checksum;
}

/* wire-format.md §2: the fixed 32-byte innet header. For the key-value family
 * extlen is 0, so the value words follow immediately. */
header innet_h {
    bit<8>   magic;
    bit<8>   op;
    bit<8>   flags;
    bit<8>   status;
    bit<32>  req_id;
    kv_key_t key;
    seq_t    seq;
    vallen_t vallen;
    bit<16>  extlen;
}

/* wire-format.md §2: the value, zero-padded to a multiple of 8 bytes, is
 * extracted as 8-byte words (16 words for the 128-byte maximum). */
header value_word_h {
    value_word_t word;
}

struct headers_t {
    ethernet_h      ethernet;
    ipv4_h          ipv4;
    udp_h           udp;
    innet_h         innet;
    value_word_h[VALUE_WORDS_MAX] value_words;
}

/*
 * Per-packet metadata. The parser sets the parse results; the steps of each
 * program's MyIngress apply block then read what earlier steps wrote. The
 * record step *decides* (sets the value_* and answer flags); later steps
 * *execute* those decisions.
 */
struct local_metadata_t {
    /* the reason this packet is dropped, DROP_NONE if it is not */
    bit<8>      drop_reason;

    /* parser results */
    bool        is_kv;             /* innet header on UDP 5008, magic 0xA1, extlen 0 */
    bool        value_parsed;      /* the whole value is in hdr.value_words (vallen <= 128) */
    bit<8>      value_words_left;  /* parser loop counter */

    /* classification */
    bool        is_client_request; /* dst port 5008 and op GET, PUT or DEL */
    bool        is_server_reply;   /* src port 5008 */
    bool        is_write;          /* client PUT or DEL (becomes PUT_SEQ / DEL_SEQ) */

    /* cache_lookup */
    bool        cache_lookup_hit;  /* the key has a cache_lookup entry */
    cache_idx_t cache_idx;         /* its record index */

    /* set by the record step: count this request in cached_frequency rather
     * than in the Count-Min Sketch (FarReach: lookup hit and valid, §3.2) */
    bool        cached;

    /* read_seq_bound: for server replies, the last seq assigned in the key's
     * slot; a reply whose seq is below it may predate a write in flight */
    seq_t       seq_bound;
    /* farreach.p4: this write is a copy of its client's last numbered write
     * and a later write has been numbered in its slot since: it is relayed
     * with its first number and changes no cached record */
    bool        stale_write_copy;

    /* frequency sampling */
    bit<8>      sample_mask;
    bool        sampled;

    /* value commands decided by the record step */
    bool        value_save_original;     /* registers -> original_word_* (snapshot) */
    bool        value_store_from_packet; /* hdr.value_words -> registers */
    bool        value_load_to_packet;    /* registers -> hdr.value_words */
    bool        value_strip_packet;      /* invalidate all hdr.value_words */
    bit<8>      value_words_to_load;     /* words of the record: ceil(vallen / 8) */

    /* reply framing */
    bool        answer_from_switch;  /* turn the request into its reply, out the ingress port */
    bool        value_resized;       /* vallen changed: recompute UDP and IPv4 lengths */

    /* FarReach §3.4 snapshot: clone the record as it was before this change to
     * the CPU port. The original record travels with the clone (field list 1). */
    bool        snapshot_report;
    @field_list(1) bit<32>  original_req_id;
    @field_list(1) kv_key_t original_key;
    @field_list(1) seq_t    original_seq;
    @field_list(1) vallen_t original_vallen;
    @field_list(1) bit<8>   original_flags;
    @field_list(1) value_word_t original_word_00;
    @field_list(1) value_word_t original_word_01;
    @field_list(1) value_word_t original_word_02;
    @field_list(1) value_word_t original_word_03;
    @field_list(1) value_word_t original_word_04;
    @field_list(1) value_word_t original_word_05;
    @field_list(1) value_word_t original_word_06;
    @field_list(1) value_word_t original_word_07;
    @field_list(1) value_word_t original_word_08;
    @field_list(1) value_word_t original_word_09;
    @field_list(1) value_word_t original_word_10;
    @field_list(1) value_word_t original_word_11;
    @field_list(1) value_word_t original_word_12;
    @field_list(1) value_word_t original_word_13;
    @field_list(1) value_word_t original_word_14;
    @field_list(1) value_word_t original_word_15;
}

#endif /* INNET_HEADERS_P4 */
