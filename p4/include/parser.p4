/*
 * innet P4 data planes: parser, checksum controls and deparser, shared by
 * nocache.p4, netcache.p4 and farreach.p4 so that all three accept exactly the
 * same bytes (docs/wire-format.md §1 and §2).
 *
 * What is parsed:
 *   Ethernet -> IPv4 (only version 4, IHL 5, not a fragment, for UDP) -> UDP
 *   -> innet header if either UDP port is 5008 (requests go to 5008, replies
 *   come from it) -> the value words if magic is 0xA1, extlen is 0 and
 *   vallen <= 128.
 * Anything else stops early and is accepted: the bytes not parsed travel on as
 * payload, untouched. In particular values above 128 bytes are never parsed
 * (FarReach §3.1: "For large records, FarReach simply relays them").
 */
#ifndef INNET_PARSER_P4
#define INNET_PARSER_P4

parser MyParser(packet_in packet,
                out headers_t hdr,
                inout local_metadata_t meta,
                inout standard_metadata_t standard_metadata) {

    state start {
        /* v1model zeroes user metadata; stated here so no control depends on it */
        meta.drop_reason = DROP_NONE;
        meta.is_kv = false;
        meta.value_parsed = false;
        meta.value_words_left = 0;
        meta.is_client_request = false;
        meta.is_server_reply = false;
        meta.is_write = false;
        meta.cache_lookup_hit = false;
        meta.cache_idx = 0;
        meta.cached = false;
        meta.seq_bound = 0;
        meta.sample_mask = 0;
        meta.sampled = false;
        meta.value_save_original = false;
        meta.value_store_from_packet = false;
        meta.value_load_to_packet = false;
        meta.value_strip_packet = false;
        meta.value_words_to_load = 0;
        meta.answer_from_switch = false;
        meta.value_resized = false;
        meta.snapshot_report = false;
        transition parse_ethernet;
    }

    state parse_ethernet {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        /* Only the framing of wire-format.md §1 goes further. The ingress
         * validation drops IPv4 packets with another version, options or
         * fragmentation (DROP_UNSUPPORTED_IPV4); other protocols are forwarded. */
        transition select(hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.flags,
                          hdr.ipv4.frag_offset, hdr.ipv4.protocol) {
            (IPV4_VERSION, IPV4_IHL_NO_OPTIONS, 0b000 &&& IPV4_FLAG_MF, 0, IP_PROTO_UDP): parse_udp;
            default: accept;
        }
    }

    state parse_udp {
        packet.extract(hdr.udp);
        transition select(hdr.udp.dst_port, hdr.udp.src_port) {
            (UDP_PORT_KV, _): parse_innet;   /* a request */
            (_, UDP_PORT_KV): parse_innet;   /* a reply */
            default: accept;
        }
    }

    state parse_innet {
        packet.extract(hdr.innet);
        /* First match wins. vallen 1..127 is "top nine bits zero", 128 is
         * listed on its own: both fit the 16 value words. */
        transition select(hdr.innet.magic, hdr.innet.extlen, hdr.innet.vallen) {
            (INNET_MAGIC, 0, 0):                 kv_without_value;
            (INNET_MAGIC, 0, 0x0000 &&& 0xFF80): kv_with_value;
            (INNET_MAGIC, 0, MAX_CACHED_VALUE_BYTES): kv_with_value;
            (INNET_MAGIC, 0, _):                 kv_large_value;
            /* Wrong magic, or an extension on the key-value port: not a message
             * this switch interprets; relayed so the receiver's codec rejects it. */
            default: accept;
        }
    }

    state kv_without_value {
        meta.is_kv = true;
        meta.value_parsed = true;
        transition accept;
    }

    state kv_large_value {
        /* vallen > 128: relayed uncached, the value stays unparsed payload. */
        meta.is_kv = true;
        meta.value_parsed = false;
        transition accept;
    }

    state kv_with_value {
        meta.is_kv = true;
        meta.value_parsed = true;
        /* ceil(vallen / 8) words; vallen <= 128 here, so this fits in 8 bits */
        meta.value_words_left = (bit<8>) ((hdr.innet.vallen + 7) >> 3);
        transition parse_value_word;
    }

    /* Bounded loop: at most VALUE_WORDS_MAX iterations because vallen <= 128. */
    state parse_value_word {
        packet.extract(hdr.value_words.next);
        meta.value_words_left = meta.value_words_left - 1;
        transition select(meta.value_words_left) {
            0: accept;
            default: parse_value_word;
        }
    }
}

/* RFC 791 header checksum over the 20-byte header; a failure sets
 * standard_metadata.checksum_error and ingress drops the packet. */
control MyVerifyChecksum(inout headers_t hdr, inout local_metadata_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == IPV4_IHL_NO_OPTIONS,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp_ecn, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum,
            HashAlgorithm.csum16);
    }
}

/* Recomputed for every IPv4 packet: the switch rewrites addresses and lengths
 * of the messages it answers, embeds into or sends to its controller. For
 * packets it did not change the result equals the verified input. */
control MyComputeChecksum(inout headers_t hdr, inout local_metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == IPV4_IHL_NO_OPTIONS,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp_ecn, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum,
            HashAlgorithm.csum16);
    }
}

/* Emits the valid headers in wire order; a header stack emits its valid
 * elements in index order. Unparsed bytes follow as payload. */
control MyDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.innet);
        packet.emit(hdr.value_words);
    }
}

#endif /* INNET_PARSER_P4 */
