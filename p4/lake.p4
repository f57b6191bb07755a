/*
 * lake.p4: LaKe, a layered memcached cache on a NIC (Tokusashi, Matsutani,
 * Zilberman, "LaKe: The Power of In-Network Computing", ReConFig 2018), as
 * innet implements it; the protocol is specs/lake/Lake.tla, the design and
 * its limits docs/lake.md.
 *
 * What it does:
 *   - memcached's binary protocol over UDP (port 11211: the 8-byte UDP frame
 *     header, then the 24-byte binary header) is parsed; everything else goes
 *     where ipv4_forward sends it (to the host, like a NIC);
 *   - a GET of a 16-byte key is answered from the first layer (L1_SLOTS
 *     direct-mapped slots, the paper's on-chip cache) or, on a miss there,
 *     the second layer (L2_SLOTS slots, the stand-in for NetFPGA-SUME's
 *     on-board DRAM: a bigger register array placed in the memory "dram" by
 *     @innet_memory, which the simulator times as slower than "onchip");
 *   - every other binary request goes to the host with a tag in its opaque
 *     field; the lookup table (lut_*) remembers the client's opaque, the key
 *     and, for a cacheable SET, the value;
 *   - the host's replies are matched by tag, get the client's opaque back,
 *     and fill both layers (GET hit: the reply's value; SET: the value from
 *     the table) if the tag is newer than the slot's fence, else invalidate a
 *     slot holding that key; the fence then becomes the newest tag issued.
 *     A reply whose tag the table does not hold is dropped.
 * Why fills are guarded and SETs do not update the layers on the way in:
 * docs/specs/lake.md (the paper's rules read literally are not linearizable
 * over UDP; MCLake_PaperWriteThroughReads).
 *
 * Fixed sizes (the paper's fixed-size chunks): keys of MC_KEY_BYTES = 16 and
 * values of MC_VALUE_BYTES = 32 are cached; requests for other key lengths
 * are relayed (tagged) without touching the layers, SETs and other
 * key-changing requests with a 16-byte key but another value length
 * invalidate the key.
 *
 * Control-plane interface: MyIngress.ipv4_forward (as every innet program);
 * MyIngress.tag_counter[0] seeded at boot above every tag the previous
 * incarnation issued (docs/lake.md, "Device reset"). Port 64 is the CPU port
 * (defines.p4), unused by LaKe's data path.
 *
 * Structure of MyIngress.apply, in order:
 *   1 frame validation and IPv4 forwarding     (include/ingress_forwarding.p4)
 *   2 binary requests: GET lookup L1 then L2, answer a hit; else tag, record,
 *     forward (invalidating first for key-changing requests)
 *   3 binary replies: match the tag, restore the opaque, fill or invalidate
 *     each layer, raise the fences
 */
#include <core.p4>
#include <v1model.p4>

#include "include/defines.p4"
#include "include/sizes.p4"

/* ======================================================================
 * Constants (memcached binary protocol: memcached's protocol_binary.h and
 * the binary protocol specification; UDP frame header: memcached
 * doc/protocol.txt "UDP protocol").
 * ====================================================================== */

const bit<16> UDP_PORT_MEMCACHED = 11211;
const bit<8>  MC_MAGIC_REQUEST = 0x80;
const bit<8>  MC_MAGIC_RESPONSE = 0x81;
const bit<8>  MC_OP_GET = 0x00;
const bit<8>  MC_OP_SET = 0x01;
const bit<16> MC_STATUS_OK = 0x0000;
const bit<16> MC_KEY_BYTES = 16;
const bit<8>  MC_SET_EXTRAS_BYTES = 8;     /* flags, expiration */
const bit<8>  MC_GET_EXTRAS_BYTES = 4;     /* flags */
const bit<32> MC_SET_BODY_BYTES = 56;      /* 8 + 16 + 32 */
const bit<32> MC_GET_REPLY_BODY_BYTES = 36;/* 4 + 32 */
const bit<16> MC_FRAME_BYTES = 8;
const bit<16> MC_HEADER_BYTES = 24;

typedef bit<128> mc_key_t;                 /* MC_KEY_BYTES */
typedef bit<256> mc_value_t;               /* MC_VALUE_BYTES = 32 */
typedef bit<32>  mc_tag_t;

/* First layer: the paper's on-chip (BRAM) cache, direct-mapped. */
const bit<32> L1_SLOTS = 256;
/* Second layer: NetFPGA-SUME's on-board DRAM in the paper; a larger register
 * array here. p4sim gives it no timing; the simulator delays a packet whose
 * pass touched it (@innet_memory("dram") below, docs/lake.md). */
const bit<32> L2_SLOTS = 4096;
/* Lookup table of forwarded requests: entry = tag mod LUT_SLOTS. An entry
 * overwritten before its reply returns makes LaKe drop that reply. */
const bit<32> LUT_SLOTS = 1024;
const bit<32> LUT_INDEX_MASK = 1023;

/* L2's hash is salted so that keys colliding in L1 spread in L2. */
const bit<32> L2_SALT = 0x4c614b65;        /* "LaKe" */

/* lut_kind: what the reply of a forwarded request does to the layers */
const bit<8> LUT_FREE = 0;                 /* no request (or answered) */
const bit<8> LUT_GET = 1;                  /* cacheable GET: a hit reply fills */
const bit<8> LUT_SET = 2;                  /* cacheable SET: an OK reply fills from the table */
const bit<8> LUT_KEY_CHANGE = 3;           /* other request with a 16-byte key: invalidate */
const bit<8> LUT_RELAY = 4;                /* no cacheable key: only the opaque is restored */

/* IPv4 identification of the responses LaKe answers itself ("LK"): a mark for innet's clients and
 * statistics (memcached clients ignore it), like FLAG_FROM_SWITCH in the innet header. */
const bit<16> LAKE_ANSWER_IP_ID = 0x4c4b;

/* drop reasons beyond defines.p4's (kept here: LaKe's own) */
const bit<8> DROP_MC_UNKNOWN_TAG = 7;      /* a reply whose tag the lookup table does not hold */

/* ======================================================================
 * Headers
 * ====================================================================== */

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  dscp_ecn;
    bit<16> total_len;
    bit<16> identification;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src_addr;
    bit<32> dst_addr;
}

header udp_h {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> length;
    bit<16> checksum;
}

/* memcached UDP frame header */
header mc_frame_h {
    bit<16> request_id;
    bit<16> seq_no;
    bit<16> datagrams;
    bit<16> reserved;
}

/* memcached binary protocol header (request and response) */
header mc_header_h {
    bit<8>  magic;
    bit<8>  opcode;
    bit<16> key_length;
    bit<8>  extras_length;
    bit<8>  data_type;
    bit<16> vbucket_or_status;
    bit<32> total_body_length;
    bit<32> opaque;
    bit<64> cas;
}

header mc_set_extras_h {
    bit<32> flags;
    bit<32> expiration;
}

header mc_get_extras_h {
    bit<32> flags;
}

header mc_key_h {
    mc_key_t key;
}

header mc_value_h {
    mc_value_t value;
}

struct headers_t {
    ethernet_h      ethernet;
    ipv4_h          ipv4;
    udp_h           udp;
    mc_frame_h      mc_frame;
    mc_header_h     mc;
    mc_set_extras_h set_extras;
    mc_get_extras_h get_extras;
    mc_key_h        key;
    mc_value_h      value;
}

struct local_metadata_t {
    bit<8>   drop_reason;
    /* parser results */
    bool     mc_request;        /* binary request to port 11211, first datagram */
    bool     mc_response;       /* binary response from port 11211, first datagram */
    bool     mc_cacheable_get;  /* GET with a 16-byte key */
    bool     mc_cacheable_set;  /* SET with a 16-byte key and a 32-byte value */
    /* lookup */
    bit<32>  l1_slot;
    bit<32>  l2_slot;
    /* reply handling */
    mc_key_t reply_key;
    bit<8>   reply_kind;
}

/* ======================================================================
 * Parser: Ethernet -> IPv4 (no options, not a fragment) -> UDP -> on port
 * 11211 the frame header, and for the first datagram of a message the binary
 * header -> extras, key and value when their lengths are the fixed ones.
 * Anything else is accepted early and relayed as payload.
 * ====================================================================== */

parser MyParser(packet_in packet, out headers_t hdr, inout local_metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        meta.drop_reason = DROP_NONE;
        meta.mc_request = false;
        meta.mc_response = false;
        meta.mc_cacheable_get = false;
        meta.mc_cacheable_set = false;
        meta.l1_slot = 0;
        meta.l2_slot = 0;
        meta.reply_key = 0;
        meta.reply_kind = LUT_FREE;
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.flags,
                          hdr.ipv4.frag_offset, hdr.ipv4.protocol) {
            (IPV4_VERSION, IPV4_IHL_NO_OPTIONS, 0b000 &&& IPV4_FLAG_MF, 0, IP_PROTO_UDP): parse_udp;
            default: accept;
        }
    }

    state parse_udp {
        packet.extract(hdr.udp);
        transition select(hdr.udp.dst_port, hdr.udp.src_port) {
            (UDP_PORT_MEMCACHED, _): parse_frame;
            (_, UDP_PORT_MEMCACHED): parse_frame;
            default: accept;
        }
    }

    /* Only the first datagram of a message carries the binary header; the
     * others (a large response) are relayed as they are. */
    state parse_frame {
        packet.extract(hdr.mc_frame);
        transition select(hdr.mc_frame.seq_no) {
            0: parse_binary_header;
            default: accept;
        }
    }

    state parse_binary_header {
        /* one byte: an ASCII command may be shorter than a binary header */
        transition select(packet.lookahead<bit<8>>(), hdr.udp.dst_port) {
            (MC_MAGIC_REQUEST, UDP_PORT_MEMCACHED): parse_request;
            (MC_MAGIC_RESPONSE, _): parse_response;
            /* ASCII protocol or garbage: not LaKe's (docs/lake.md) */
            default: accept;
        }
    }

    state parse_request {
        packet.extract(hdr.mc);
        meta.mc_request = true;
        transition select(hdr.mc.opcode, hdr.mc.key_length, hdr.mc.extras_length) {
            (MC_OP_GET, MC_KEY_BYTES, 0): parse_get_key;
            (MC_OP_SET, MC_KEY_BYTES, MC_SET_EXTRAS_BYTES): parse_set_extras;
            (_, MC_KEY_BYTES, 0): parse_key;
            (_, MC_KEY_BYTES, 4): parse_get_extras_then_key;
            (_, MC_KEY_BYTES, 8): parse_set_extras;
            default: accept;
        }
    }

    state parse_get_key {
        packet.extract(hdr.key);
        meta.mc_cacheable_get = hdr.mc.total_body_length == (bit<32>) MC_KEY_BYTES;
        transition accept;
    }

    state parse_get_extras_then_key {
        packet.extract(hdr.get_extras);
        transition parse_key;
    }

    state parse_set_extras {
        packet.extract(hdr.set_extras);
        transition parse_key_then_value;
    }

    state parse_key_then_value {
        packet.extract(hdr.key);
        transition select(hdr.mc.opcode, hdr.mc.total_body_length) {
            (MC_OP_SET, MC_SET_BODY_BYTES): parse_set_value;
            default: accept;
        }
    }

    state parse_set_value {
        packet.extract(hdr.value);
        meta.mc_cacheable_set = true;
        transition accept;
    }

    state parse_key {
        packet.extract(hdr.key);
        transition accept;
    }

    state parse_response {
        packet.extract(hdr.mc);
        meta.mc_response = true;
        transition select(hdr.mc.opcode, hdr.mc.vbucket_or_status, hdr.mc.key_length,
                          hdr.mc.extras_length, hdr.mc.total_body_length) {
            (MC_OP_GET, MC_STATUS_OK, 0, MC_GET_EXTRAS_BYTES, MC_GET_REPLY_BODY_BYTES): parse_reply_value;
            default: accept;
        }
    }

    state parse_reply_value {
        packet.extract(hdr.get_extras);
        packet.extract(hdr.value);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout local_metadata_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == IPV4_IHL_NO_OPTIONS,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp_ecn, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

/* ======================================================================
 * Ingress
 * ====================================================================== */

control MyIngress(inout headers_t hdr,
                  inout local_metadata_t meta,
                  inout standard_metadata_t standard_metadata) {

#include "include/ingress_forwarding.p4"

    /* ---- the two layers: valid, key, value, memcached flags and CAS ----
     * @innet_memory names the memory each layer lives in: the simulator
     * delays a packet by the latency of every memory its pass touched
     * ("onchip": the paper's BRAM hit, 1.16 us; "dram": the rest of its
     * 5.6 us DRAM hit). p4c and p4sim's live target ignore it. */
    @innet_memory("onchip") register<bit<1>>(L1_SLOTS) l1_valid;
    @innet_memory("onchip") register<mc_key_t>(L1_SLOTS) l1_key;
    @innet_memory("onchip") register<mc_value_t>(L1_SLOTS) l1_value;
    @innet_memory("onchip") register<bit<32>>(L1_SLOTS) l1_flags;
    @innet_memory("onchip") register<bit<64>>(L1_SLOTS) l1_cas;
    /* the newest tag issued when a reply last touched the slot */
    @innet_memory("onchip") register<mc_tag_t>(L1_SLOTS) l1_fence;

    @innet_memory("dram") register<bit<1>>(L2_SLOTS) l2_valid;
    @innet_memory("dram") register<mc_key_t>(L2_SLOTS) l2_key;
    @innet_memory("dram") register<mc_value_t>(L2_SLOTS) l2_value;
    @innet_memory("dram") register<bit<32>>(L2_SLOTS) l2_flags;
    @innet_memory("dram") register<bit<64>>(L2_SLOTS) l2_cas;
    @innet_memory("dram") register<mc_tag_t>(L2_SLOTS) l2_fence;

    /* ---- forwarded requests ---- */
    /* the last tag issued (the control plane seeds it after a reset) */
    register<mc_tag_t>(1) tag_counter;
    register<mc_tag_t>(LUT_SLOTS) lut_tag;
    register<bit<8>>(LUT_SLOTS) lut_kind;
    register<bit<32>>(LUT_SLOTS) lut_opaque;
    register<mc_key_t>(LUT_SLOTS) lut_key;
    register<mc_value_t>(LUT_SLOTS) lut_value;
    register<bit<32>>(LUT_SLOTS) lut_flags;

    /* counters for the control plane and the benchmark: [0] L1 hits,
     * [1] L2 hits, [2] misses forwarded, [3] fills, [4] invalidations */
    register<bit<32>>(8) lake_stats;

    action count(bit<32> which) {
        bit<32> n;
        lake_stats.read(n, which);
        lake_stats.write(which, n + 1);
    }

    action compute_slots(mc_key_t key) {
        hash(meta.l1_slot, HashAlgorithm.crc32, (bit<32>) 0, { key }, L1_SLOTS);
        hash(meta.l2_slot, HashAlgorithm.crc32, (bit<32>) 0, { key, L2_SALT }, L2_SLOTS);
    }

    /* The request becomes its response, back out of the port it came in. */
    action answer_get(mc_value_t value, bit<32> flags, bit<64> cas) {
        bit<48> mac = hdr.ethernet.dst_addr;
        hdr.ethernet.dst_addr = hdr.ethernet.src_addr;
        hdr.ethernet.src_addr = mac;
        bit<32> ip = hdr.ipv4.dst_addr;
        hdr.ipv4.dst_addr = hdr.ipv4.src_addr;
        hdr.ipv4.src_addr = ip;
        hdr.ipv4.identification = LAKE_ANSWER_IP_ID;
        bit<16> port = hdr.udp.dst_port;
        hdr.udp.dst_port = hdr.udp.src_port;
        hdr.udp.src_port = port;
        hdr.mc.magic = MC_MAGIC_RESPONSE;
        hdr.mc.key_length = 0;
        hdr.mc.extras_length = MC_GET_EXTRAS_BYTES;
        hdr.mc.data_type = 0;
        hdr.mc.vbucket_or_status = MC_STATUS_OK;
        hdr.mc.total_body_length = MC_GET_REPLY_BODY_BYTES;
        hdr.mc.cas = cas;
        hdr.key.setInvalid();
        hdr.get_extras.setValid();
        hdr.get_extras.flags = flags;
        hdr.value.setValid();
        hdr.value.value = value;
        bit<16> udp_len = UDP_HEADER_BYTES + MC_FRAME_BYTES + MC_HEADER_BYTES
                          + (bit<16>) MC_GET_REPLY_BODY_BYTES;
        hdr.udp.length = udp_len;
        hdr.udp.checksum = 0;   /* optional over IPv4; the payload changed */
        hdr.ipv4.total_len = IPV4_HEADER_BYTES + udp_len;
        standard_metadata.egress_spec = standard_metadata.ingress_port;
    }

    /* Tag a request for the host: the next tag replaces the client's opaque,
     * which the lookup table keeps with what the reply will need. */
    action tag_request(bit<8> kind) {
        mc_tag_t last;
        tag_counter.read(last, 0);
        mc_tag_t tag = last + 1;
        tag_counter.write(0, tag);
        bit<32> idx = tag & LUT_INDEX_MASK;
        lut_tag.write(idx, tag);
        lut_kind.write(idx, kind);
        lut_opaque.write(idx, hdr.mc.opaque);
        hdr.mc.opaque = tag;
        hdr.udp.checksum = 0;
    }

    action remember_key() {
        lut_key.write(hdr.mc.opaque & LUT_INDEX_MASK, hdr.key.key);
    }

    action remember_value() {
        bit<32> idx = hdr.mc.opaque & LUT_INDEX_MASK;
        lut_value.write(idx, hdr.value.value);
        lut_flags.write(idx, hdr.set_extras.flags);
    }

    apply {
        validate_frame();
        if (meta.drop_reason == DROP_NONE) {
            ipv4_forward.apply();
        }

        /* ---- 2: requests ---- */
        if (meta.drop_reason == DROP_NONE && meta.mc_request) {
            bool answered = false;
            if (meta.mc_cacheable_get) {
                compute_slots(hdr.key.key);
                bit<1> valid;
                mc_key_t key;
                l1_valid.read(valid, meta.l1_slot);
                l1_key.read(key, meta.l1_slot);
                if (valid == 1 && key == hdr.key.key) {
                    mc_value_t value;
                    bit<32> flags;
                    bit<64> cas;
                    l1_value.read(value, meta.l1_slot);
                    l1_flags.read(flags, meta.l1_slot);
                    l1_cas.read(cas, meta.l1_slot);
                    answer_get(value, flags, cas);
                    count(0);
                    answered = true;
                } else {
                    l2_valid.read(valid, meta.l2_slot);
                    l2_key.read(key, meta.l2_slot);
                    if (valid == 1 && key == hdr.key.key) {
                        mc_value_t value;
                        bit<32> flags;
                        bit<64> cas;
                        l2_value.read(value, meta.l2_slot);
                        l2_flags.read(flags, meta.l2_slot);
                        l2_cas.read(cas, meta.l2_slot);
                        answer_get(value, flags, cas);
                        count(1);
                        answered = true;
                    }
                }
            }
            if (!answered) {
                if (meta.mc_cacheable_get) {
                    tag_request(LUT_GET);
                    remember_key();
                    count(2);
                } else if (meta.mc_cacheable_set) {
                    tag_request(LUT_SET);
                    remember_key();
                    remember_value();
                } else if (hdr.key.isValid() && hdr.mc.opcode != MC_OP_GET) {
                    /* DELETE, a SET of another value size, ADD, INCR, ...: the
                     * key's cached value is no longer the host's once this is
                     * applied. Invalidate now and fence the slots, so that no
                     * reply to an earlier request refills them. */
                    tag_request(LUT_KEY_CHANGE);
                    remember_key();
                    compute_slots(hdr.key.key);
                    mc_key_t key;
                    mc_tag_t tag = hdr.mc.opaque;
                    l1_key.read(key, meta.l1_slot);
                    if (key == hdr.key.key) { l1_valid.write(meta.l1_slot, 0); }
                    l1_fence.write(meta.l1_slot, tag);
                    l2_key.read(key, meta.l2_slot);
                    if (key == hdr.key.key) { l2_valid.write(meta.l2_slot, 0); }
                    l2_fence.write(meta.l2_slot, tag);
                } else {
                    tag_request(LUT_RELAY);
                }
            }
        }

        /* ---- 3: replies ---- */
        if (meta.drop_reason == DROP_NONE && meta.mc_response) {
            mc_tag_t tag = hdr.mc.opaque;
            bit<32> idx = tag & LUT_INDEX_MASK;
            mc_tag_t held;
            lut_tag.read(held, idx);
            if (held != tag || tag == 0) {
                meta.drop_reason = DROP_MC_UNKNOWN_TAG;
            } else {
                bit<32> opaque;
                lut_opaque.read(opaque, idx);
                lut_kind.read(meta.reply_kind, idx);
                lut_key.read(meta.reply_key, idx);
                lut_tag.write(idx, 0);
                lut_kind.write(idx, LUT_FREE);
                hdr.mc.opaque = opaque;
                hdr.udp.checksum = 0;
            }
            if (meta.drop_reason == DROP_NONE && meta.reply_kind != LUT_RELAY) {
                /* What a fill installs: a GET hit's value from the reply, an OK
                 * SET's from the table; nothing for the rest. */
                bool has_value = false;
                mc_value_t value = 0;
                bit<32> flags = 0;
                if (meta.reply_kind == LUT_GET && hdr.value.isValid()) {
                    has_value = true;
                    value = hdr.value.value;
                    flags = hdr.get_extras.flags;
                } else if (meta.reply_kind == LUT_SET && hdr.mc.opcode == MC_OP_SET
                           && hdr.mc.vbucket_or_status == MC_STATUS_OK) {
                    has_value = true;
                    lut_value.read(value, idx);
                    lut_flags.read(flags, idx);
                }
                compute_slots(meta.reply_key);
                mc_tag_t newest;
                tag_counter.read(newest, 0);
                mc_tag_t fence;
                mc_key_t key;

                l1_fence.read(fence, meta.l1_slot);
                l1_key.read(key, meta.l1_slot);
                if (has_value && tag > fence) {
                    l1_valid.write(meta.l1_slot, 1);
                    l1_key.write(meta.l1_slot, meta.reply_key);
                    l1_value.write(meta.l1_slot, value);
                    l1_flags.write(meta.l1_slot, flags);
                    l1_cas.write(meta.l1_slot, hdr.mc.cas);
                    count(3);
                } else if (key == meta.reply_key) {
                    l1_valid.write(meta.l1_slot, 0);
                    count(4);
                }
                if (newest > fence) { l1_fence.write(meta.l1_slot, newest); }

                l2_fence.read(fence, meta.l2_slot);
                l2_key.read(key, meta.l2_slot);
                if (has_value && tag > fence) {
                    l2_valid.write(meta.l2_slot, 1);
                    l2_key.write(meta.l2_slot, meta.reply_key);
                    l2_value.write(meta.l2_slot, value);
                    l2_flags.write(meta.l2_slot, flags);
                    l2_cas.write(meta.l2_slot, hdr.mc.cas);
                } else if (key == meta.reply_key) {
                    l2_valid.write(meta.l2_slot, 0);
                }
                if (newest > fence) { l2_fence.write(meta.l2_slot, newest); }
            }
        }

        if (meta.drop_reason != DROP_NONE) {
            drop_with_reason();
        }
    }
}

control MyEgress(inout headers_t hdr,
                 inout local_metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control MyComputeChecksum(inout headers_t hdr, inout local_metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == IPV4_IHL_NO_OPTIONS,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp_ecn, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control MyDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.mc_frame);
        packet.emit(hdr.mc);
        packet.emit(hdr.set_extras);
        packet.emit(hdr.get_extras);
        packet.emit(hdr.key);
        packet.emit(hdr.value);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
