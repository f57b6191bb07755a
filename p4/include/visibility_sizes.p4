/*
 * visibility.p4: the in-switch data visibility layer's sizes, wire constants
 * and header types (docs/visibility.md "Wire format"; seed
 * visibility-layer.txt §III-B and §IV-A). Everything that is specific to the
 * visibility layer lives here, so the shared includes stay those of the
 * key-value family.
 *
 * Include after defines.p4, sizes.p4 and headers.p4 (which give the framing
 * headers, the innet header and the shared constants).
 */
#ifndef INNET_VISIBILITY_SIZES_P4
#define INNET_VISIBILITY_SIZES_P4

/* ---- the hash table (§III-B 2) ----------------------------------------- *
 * "the combined size of the hash index and fingerprint (16 bits and 32 bits,
 * respectively)": a 16-bit index addresses every cell of a 2^16 table, so no
 * index a client computes can be out of range. */
typedef bit<16> vis_index_t;
typedef bit<32> vis_fp_t;
const bit<32> VIS_SLOTS = 65536;             /* = 2^16 */

/* Metadata held per entry: up to 96 bytes (issue 17), 12 words of 8 bytes.
 * A reply whose metadata is longer is not accelerated (it falls back). */
const bit<32> VIS_META_WORDS_MAX = 12;
const bit<16> VIS_META_MAX_BYTES = 96;       /* = VIS_META_WORDS_MAX * VALUE_WORD_BYTES */

/* ---- wire format (docs/visibility.md) ---------------------------------- */
const bit<16> UDP_PORT_VISIBILITY = 5011;    /* wire-format.md §1 port table */

/* The extension after the innet header (extlen = 8): §IV-A 1 "the header also
 * contains the hash index, the fingerprint of the key and the timestamp of the
 * operation" (the timestamp is the innet seq field; source, destination and
 * operation type are the IPv4 addresses and the op). */
const bit<16> VIS_EXT_BYTES = 8;

/* ops (request op | 0x80 = its reply) */
const bit<8> VOP_WRITE = 0x41;               /* client -> data node: append key, value */
const bit<8> VOP_WRITE_REPLY = 0xC1;         /* data node -> client (through the switch): ts, metadata */
const bit<8> VOP_META_ASYNC = 0x42;          /* switch clone -> metadata node: asynchronous update (step 4) */
const bit<8> VOP_META_UPDATE = 0x43;         /* client -> metadata node: ordered second phase */
const bit<8> VOP_META_UPDATE_REPLY = 0xC3;   /* metadata node -> client (through the switch) */
const bit<8> VOP_META_HELD = 0xC4;           /* switch -> metadata node: that reply is held back, re-send it */
const bit<8> VOP_CLEAR = 0x45;               /* metadata node -> switch: clear the entry at ts (step 5) */
const bit<8> VOP_CLEAR_ACK = 0xC5;           /* switch -> metadata node */
const bit<8> VOP_READ = 0x46;                /* client -> metadata node: metadata of key */
const bit<8> VOP_READ_REPLY = 0xC6;          /* metadata node or switch -> client: metadata */

/* flags */
const bit<8> VFLAG_FROM_SWITCH = 0x01;       /* = FLAG_FROM_SWITCH: a READ_REPLY the switch answered */
const bit<8> VFLAG_VISIBLE = 0x08;           /* on WRITE_REPLY: the switch installed the metadata; committed */

/* drop reason (next free after defines.p4's): a visibility message the switch
 * must not handle while it waits for its post-restart resynchronisation. */
const bit<8> DROP_VIS_NOT_READY = 7;

/* Clone session and field list of the asynchronous update (step 4). */
const bit<32> VIS_META_CLONE_SESSION = 101;
const bit<8> FIELD_LIST_VIS_META_ASYNC = 2;

/* ---- header types ------------------------------------------------------ */
header vis_ext_h {
    vis_index_t hash_index;
    bit<16>     reserved;      /* zero */
    vis_fp_t    fingerprint;
}

struct vis_headers_t {
    ethernet_h   ethernet;
    ipv4_h       ipv4;
    udp_h        udp;
    innet_h      innet;
    vis_ext_h    ext;
    value_word_h[VIS_META_WORDS_MAX] meta_words;
}

struct vis_metadata_t {
    bit<8>  drop_reason;         /* as in local_metadata_t: ingress_forwarding.p4 reads it */
    bool    is_vis;              /* innet header with extlen 8 on UDP 5011 */
    bool    meta_parsed;         /* the whole value (the metadata) is in hdr.meta_words */
    bit<8>  words_left;          /* parser loop counter */
    bool    answer_from_switch;  /* turn the packet around, out its ingress port */
    /* the metadata node's host, carried to egress with the clone */
    @field_list(2) bit<8> mdn_host;
}

#endif /* INNET_VISIBILITY_SIZES_P4 */
