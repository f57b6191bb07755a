/*
 * visibility.p4: the in-switch data visibility layer (seed
 * visibility-layer.txt, "Switch: Asynchronous Metadata Updating for
 * Distributed Storage with In-Network Data Visibility", §III and §IV; spec
 * specs/visibility/Visibility.tla; docs/visibility.md).
 *
 * A write is committed after one round trip: the data node's reply passes the
 * switch, which buffers the write's metadata in a hash table entry and marks
 * the reply VISIBLE; a clone of the reply goes to the metadata node, which
 * applies the update later and asks the switch to clear the entry. A read asks
 * the metadata node for a key's metadata; the switch answers it from the entry
 * when the entry is valid and its fingerprint matches.
 *
 * Per entry (index = the header's 16-bit hash index):
 *   valid, fingerprint (32 bit), CurTs, MaxTs, metadata (up to 96 bytes).
 * Rules (spec action in brackets):
 *   W1 a WRITE_REPLY always raises MaxTs to its timestamp          [SwWriteReply]
 *   W2 it installs only if the entry is clear and ts > MaxTs (before
 *      raising); installed: VISIBLE flag + clone to the metadata node [SwInstall]
 *   W3 otherwise it passes unchanged: the client runs the ordered
 *      second phase (fallback)                                       [SwFallback]
 *   M1 a META_UPDATE_REPLY with ts == CurTs of a valid entry clears it
 *   M2 one with ts > CurTs of a valid entry is held back: returned to
 *      the metadata node as META_HELD, which re-sends it            [SwMetaReply]
 *   M3 any other passes
 *   C1 a CLEAR clears only when ts == CurTs of a valid entry; always
 *      answered with CLEAR_ACK                                       [SwClear]
 *   R1 a READ whose entry is valid with the same fingerprint is
 *      answered by the switch with the entry's metadata and CurTs    [SwReadHit]
 *   R2 any other READ goes on to the metadata node                  [SwReadMiss]
 *   Z1 until the control plane sets vis_ready (after a restart and the
 *      resynchronisation that reloads MaxTs), W/M/C/R messages are
 *      dropped (§III-E 3: acceleration disabled)          [SwCrash..SwResync]
 * Every other message is forwarded by IPv4 destination.
 *
 * Control-plane interface: ipv4_forward/set_egress_port (every rack
 * program), registers vis_ready[0], vis_mdn_host[0] (the metadata node's
 * host number), vis_valid/vis_fp/vis_cur_ts/vis_max_ts/vis_meta_len/
 * vis_meta_word_00..11 (read by the switch OS for stale entries, MaxTs
 * written at resync), clone session VIS_META_CLONE_SESSION -> the metadata
 * node's port.
 */
#include <core.p4>
#include <v1model.p4>

#include "include/defines.p4"
#include "include/sizes.p4"
#include "include/headers.p4"
#include "include/visibility_sizes.p4"

parser MyParser(packet_in packet,
                out vis_headers_t hdr,
                inout vis_metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        meta.drop_reason = DROP_NONE;
        meta.is_vis = false;
        meta.meta_parsed = false;
        meta.words_left = 0;
        meta.answer_from_switch = false;
        meta.mdn_host = 0;
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
            (UDP_PORT_VISIBILITY, _): parse_innet;
            (_, UDP_PORT_VISIBILITY): parse_innet;
            default: accept;
        }
    }
    state parse_innet {
        packet.extract(hdr.innet);
        transition select(hdr.innet.magic, hdr.innet.extlen) {
            (INNET_MAGIC, VIS_EXT_BYTES): parse_ext;
            /* anything else on 5011 is relayed for the receiver's codec to reject */
            default: accept;
        }
    }
    state parse_ext {
        packet.extract(hdr.ext);
        meta.is_vis = true;
        /* 0 < vallen <= 96: the metadata fits the 12 words; 0: nothing to parse;
         * above 96 (application values of WRITE requests) stays payload. */
        transition select(hdr.innet.vallen) {
            0: no_metadata;
            0x0000 &&& 0xFFC0: metadata;         /* 1..63 */
            0x0040 &&& 0xFFE0: metadata;         /* 64..95 */
            VIS_META_MAX_BYTES: metadata;        /* 96 */
            default: accept;
        }
    }
    state no_metadata {
        meta.meta_parsed = true;
        transition accept;
    }
    state metadata {
        meta.meta_parsed = true;
        meta.words_left = (bit<8>) ((hdr.innet.vallen + 7) >> 3);
        transition parse_meta_word;
    }
    /* Bounded: at most 12 iterations because vallen <= 96. */
    state parse_meta_word {
        packet.extract(hdr.meta_words.next);
        meta.words_left = meta.words_left - 1;
        transition select(meta.words_left) {
            0: accept;
            default: parse_meta_word;
        }
    }
}

control MyVerifyChecksum(inout vis_headers_t hdr, inout vis_metadata_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == IPV4_IHL_NO_OPTIONS,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp_ecn, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum,
            HashAlgorithm.csum16);
    }
}

control MyIngress(inout vis_headers_t hdr,
                  inout vis_metadata_t meta,
                  inout standard_metadata_t standard_metadata) {

#include "include/ingress_forwarding.p4"

    /* 1 after the control plane has (re)initialised the switch: at start, and
     * after a crash once MaxTs is reloaded (§III-E 3). */
    register<bit<1>>(1) vis_ready;
    /* host number of the metadata node: where asynchronous updates go */
    register<bit<8>>(1) vis_mdn_host;

    register<bit<1>>(VIS_SLOTS) vis_valid;
    register<vis_fp_t>(VIS_SLOTS) vis_fp;
    register<seq_t>(VIS_SLOTS) vis_cur_ts;
    register<seq_t>(VIS_SLOTS) vis_max_ts;
    register<vallen_t>(VIS_SLOTS) vis_meta_len;
    register<value_word_t>(VIS_SLOTS) vis_meta_word_00;
    register<value_word_t>(VIS_SLOTS) vis_meta_word_01;
    register<value_word_t>(VIS_SLOTS) vis_meta_word_02;
    register<value_word_t>(VIS_SLOTS) vis_meta_word_03;
    register<value_word_t>(VIS_SLOTS) vis_meta_word_04;
    register<value_word_t>(VIS_SLOTS) vis_meta_word_05;
    register<value_word_t>(VIS_SLOTS) vis_meta_word_06;
    register<value_word_t>(VIS_SLOTS) vis_meta_word_07;
    register<value_word_t>(VIS_SLOTS) vis_meta_word_08;
    register<value_word_t>(VIS_SLOTS) vis_meta_word_09;
    register<value_word_t>(VIS_SLOTS) vis_meta_word_10;
    register<value_word_t>(VIS_SLOTS) vis_meta_word_11;

    /* Turn the message around: back out of the port it came in on. */
    action swap_to_sender() {
        mac_addr_t mac = hdr.ethernet.dst_addr;
        hdr.ethernet.dst_addr = hdr.ethernet.src_addr;
        hdr.ethernet.src_addr = mac;
        ipv4_addr_t ip = hdr.ipv4.dst_addr;
        hdr.ipv4.dst_addr = hdr.ipv4.src_addr;
        hdr.ipv4.src_addr = ip;
        bit<16> port = hdr.udp.dst_port;
        hdr.udp.dst_port = hdr.udp.src_port;
        hdr.udp.src_port = port;
        standard_metadata.egress_spec = standard_metadata.ingress_port;
    }

    /* UDP length = 8 + 32 + 8 (extension) + metadata padded to 8 bytes. */
    action set_lengths_from_vallen() {
        bit<16> padded = (hdr.innet.vallen + 7) & 0xFFF8;
        hdr.udp.length = UDP_HEADER_BYTES + INNET_HEADER_BYTES + VIS_EXT_BYTES + padded;
        hdr.ipv4.total_len = IPV4_HEADER_BYTES + hdr.udp.length;
    }

    action store_metadata(bit<32> i) {
        vis_meta_len.write(i, hdr.innet.vallen);
        vis_meta_word_00.write(i, hdr.meta_words[0].isValid() ? hdr.meta_words[0].word : 0);
        vis_meta_word_01.write(i, hdr.meta_words[1].isValid() ? hdr.meta_words[1].word : 0);
        vis_meta_word_02.write(i, hdr.meta_words[2].isValid() ? hdr.meta_words[2].word : 0);
        vis_meta_word_03.write(i, hdr.meta_words[3].isValid() ? hdr.meta_words[3].word : 0);
        vis_meta_word_04.write(i, hdr.meta_words[4].isValid() ? hdr.meta_words[4].word : 0);
        vis_meta_word_05.write(i, hdr.meta_words[5].isValid() ? hdr.meta_words[5].word : 0);
        vis_meta_word_06.write(i, hdr.meta_words[6].isValid() ? hdr.meta_words[6].word : 0);
        vis_meta_word_07.write(i, hdr.meta_words[7].isValid() ? hdr.meta_words[7].word : 0);
        vis_meta_word_08.write(i, hdr.meta_words[8].isValid() ? hdr.meta_words[8].word : 0);
        vis_meta_word_09.write(i, hdr.meta_words[9].isValid() ? hdr.meta_words[9].word : 0);
        vis_meta_word_10.write(i, hdr.meta_words[10].isValid() ? hdr.meta_words[10].word : 0);
        vis_meta_word_11.write(i, hdr.meta_words[11].isValid() ? hdr.meta_words[11].word : 0);
    }

    /* Every metadata word into the packet; the apply block then makes valid
     * (emitted) only the words the metadata has. */
    action load_metadata(bit<32> i) {
        value_word_t w;
        vis_meta_word_00.read(w, i); hdr.meta_words[0].word = w;
        vis_meta_word_01.read(w, i); hdr.meta_words[1].word = w;
        vis_meta_word_02.read(w, i); hdr.meta_words[2].word = w;
        vis_meta_word_03.read(w, i); hdr.meta_words[3].word = w;
        vis_meta_word_04.read(w, i); hdr.meta_words[4].word = w;
        vis_meta_word_05.read(w, i); hdr.meta_words[5].word = w;
        vis_meta_word_06.read(w, i); hdr.meta_words[6].word = w;
        vis_meta_word_07.read(w, i); hdr.meta_words[7].word = w;
        vis_meta_word_08.read(w, i); hdr.meta_words[8].word = w;
        vis_meta_word_09.read(w, i); hdr.meta_words[9].word = w;
        vis_meta_word_10.read(w, i); hdr.meta_words[10].word = w;
        vis_meta_word_11.read(w, i); hdr.meta_words[11].word = w;
    }

    apply {
        validate_frame();
        if (meta.drop_reason == DROP_NONE) {
            ipv4_forward.apply();
        }

        if (meta.drop_reason == DROP_NONE && meta.is_vis) {
            bit<8> op = hdr.innet.op;
            bool from_vis_port = hdr.udp.src_port == UDP_PORT_VISIBILITY;
            bool to_vis_port = hdr.udp.dst_port == UDP_PORT_VISIBILITY;
            bool write_reply = from_vis_port && op == VOP_WRITE_REPLY && hdr.innet.status == STATUS_OK;
            bool meta_reply = from_vis_port && op == VOP_META_UPDATE_REPLY && hdr.innet.status == STATUS_OK;
            bool clear = to_vis_port && op == VOP_CLEAR;
            bool read = to_vis_port && op == VOP_READ;
            bit<1> ready;
            vis_ready.read(ready, 0);

            if ((write_reply || meta_reply || clear || read) && ready == 0) {
                meta.drop_reason = DROP_VIS_NOT_READY;                       /* Z1 */
            } else if (write_reply || meta_reply || clear || read) {
                bit<32> i = (bit<32>) hdr.ext.hash_index;
                bit<1> valid;
                seq_t cur_ts;
                vis_valid.read(valid, i);
                vis_cur_ts.read(cur_ts, i);
                seq_t ts = hdr.innet.seq;

                if (write_reply) {
                    seq_t max_ts;
                    vis_max_ts.read(max_ts, i);
                    vis_max_ts.write(i, ts > max_ts ? ts : max_ts);           /* W1 */
                    if (valid == 0 && ts > max_ts && meta.meta_parsed) {     /* W2 */
                        vis_valid.write(i, 1);
                        vis_fp.write(i, hdr.ext.fingerprint);
                        vis_cur_ts.write(i, ts);
                        store_metadata(i);
                        hdr.innet.flags = hdr.innet.flags | VFLAG_VISIBLE;
                        vis_mdn_host.read(meta.mdn_host, 0);
                        clone_preserving_field_list(CloneType.I2E, VIS_META_CLONE_SESSION,
                                                    FIELD_LIST_VIS_META_ASYNC);
                    }                                                          /* else W3 */
                } else if (meta_reply) {
                    if (valid == 1 && ts == cur_ts) {
                        vis_valid.write(i, 0);                                 /* M1 */
                    } else if (valid == 1 && ts > cur_ts) {
                        hdr.innet.op = VOP_META_HELD;                          /* M2 */
                        swap_to_sender();
                    }                                                          /* else M3 */
                } else if (clear) {
                    if (valid == 1 && ts == cur_ts) {
                        vis_valid.write(i, 0);                                 /* C1 */
                    }
                    hdr.innet.op = VOP_CLEAR_ACK;
                    swap_to_sender();
                } else {
                    vis_fp_t fp;
                    vis_fp.read(fp, i);
                    if (valid == 1 && fp == hdr.ext.fingerprint) {             /* R1 */
                        vallen_t len;
                        vis_meta_len.read(len, i);
                        bit<8> words = (bit<8>) ((len + 7) >> 3);
                        load_metadata(i);
                        if (words > 0) { hdr.meta_words[0].setValid(); } else { hdr.meta_words[0].setInvalid(); }
                        if (words > 1) { hdr.meta_words[1].setValid(); } else { hdr.meta_words[1].setInvalid(); }
                        if (words > 2) { hdr.meta_words[2].setValid(); } else { hdr.meta_words[2].setInvalid(); }
                        if (words > 3) { hdr.meta_words[3].setValid(); } else { hdr.meta_words[3].setInvalid(); }
                        if (words > 4) { hdr.meta_words[4].setValid(); } else { hdr.meta_words[4].setInvalid(); }
                        if (words > 5) { hdr.meta_words[5].setValid(); } else { hdr.meta_words[5].setInvalid(); }
                        if (words > 6) { hdr.meta_words[6].setValid(); } else { hdr.meta_words[6].setInvalid(); }
                        if (words > 7) { hdr.meta_words[7].setValid(); } else { hdr.meta_words[7].setInvalid(); }
                        if (words > 8) { hdr.meta_words[8].setValid(); } else { hdr.meta_words[8].setInvalid(); }
                        if (words > 9) { hdr.meta_words[9].setValid(); } else { hdr.meta_words[9].setInvalid(); }
                        if (words > 10) { hdr.meta_words[10].setValid(); } else { hdr.meta_words[10].setInvalid(); }
                        if (words > 11) { hdr.meta_words[11].setValid(); } else { hdr.meta_words[11].setInvalid(); }
                        hdr.innet.op = VOP_READ_REPLY;
                        hdr.innet.status = STATUS_OK;
                        hdr.innet.flags = hdr.innet.flags | VFLAG_FROM_SWITCH;
                        hdr.innet.seq = cur_ts;
                        hdr.innet.vallen = len;
                        swap_to_sender();
                        set_lengths_from_vallen();
                    }                                                          /* else R2 */
                }
                hdr.udp.checksum = 0;
            }
        }

        if (meta.drop_reason != DROP_NONE) {
            drop_with_reason();
        }
    }
}

/*
 * Egress: only the clone of an installed WRITE_REPLY is processed. It becomes
 * the asynchronous update (META_ASYNC, step 4) to the metadata node, whose
 * host number came with the clone's field list. Key, timestamp, extension and
 * metadata are the reply's, which ingress does not change when it installs.
 */
control MyEgress(inout vis_headers_t hdr,
                 inout vis_metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.instance_type == PKT_INSTANCE_TYPE_INGRESS_CLONE) {
            hdr.ethernet.dst_addr = 0x020000000000 | (mac_addr_t) meta.mdn_host;
            hdr.ipv4.dst_addr = 0x0a000000 | (ipv4_addr_t) meta.mdn_host;
            hdr.udp.dst_port = UDP_PORT_VISIBILITY;
            hdr.innet.op = VOP_META_ASYNC;
            hdr.innet.flags = 0;
            /* op, address and port changed: checksum 0 ("not computed", wire-format.md
             * §1); a stale one makes the metadata node's kernel drop the update */
            hdr.udp.checksum = 0;
        }
    }
}

control MyComputeChecksum(inout vis_headers_t hdr, inout vis_metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == IPV4_IHL_NO_OPTIONS,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp_ecn, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum,
            HashAlgorithm.csum16);
    }
}

control MyDeparser(packet_out packet, in vis_headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.innet);
        packet.emit(hdr.ext);
        packet.emit(hdr.meta_words);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
