/*
 * distcache.p4: parser, checksum controls and deparser. Same framing checks
 * as parser.p4 (wire-format.md §1); on UDP 5012 the innet header and, when
 * magic is 0xA1 and extlen is 12, the DistCache extension, then the value
 * words (vallen <= 128; a larger value stays unparsed payload and is never
 * cached).
 */
#ifndef INNET_DISTCACHE_PARSER_P4
#define INNET_DISTCACHE_PARSER_P4

parser DistCacheParser(packet_in packet,
                       out distcache_headers_t hdr,
                       inout distcache_metadata_t meta,
                       inout standard_metadata_t standard_metadata) {
    state start {
        meta.drop_reason = DROP_NONE;
        meta.is_distcache = false;
        meta.value_parsed = false;
        meta.value_words_left = 0;
        meta.my_node = 0;
        meta.my_layer = DC_LAYER_NONE;
        meta.routes_reads = false;
        meta.server_addr = 0;
        meta.upper_candidate = 0;
        meta.lower_candidate = 0;
        meta.cache_hit = false;
        meta.cache_idx = 0;
        meta.route_to_node = false;
        meta.consumed = false;
        meta.report_node = 0;
        meta.report_layer = 0;
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
            (UDP_PORT_DISTCACHE, _): parse_innet;
            (_, UDP_PORT_DISTCACHE): parse_innet;
            default: accept;
        }
    }

    state parse_innet {
        packet.extract(hdr.innet);
        transition select(hdr.innet.magic, hdr.innet.extlen) {
            (INNET_MAGIC, DC_EXT_BYTES): parse_distcache;
            /* anything else on 5012 is relayed; the receiver's codec rejects it */
            default: accept;
        }
    }

    state parse_distcache {
        packet.extract(hdr.dc);
        meta.is_distcache = true;
        /* First match wins: no value; 1..127 bytes ("top nine bits zero");
         * exactly 128; anything larger stays payload. */
        transition select(hdr.innet.vallen) {
            0: value_done;
            0x0000 &&& 0xFF80: with_value;
            MAX_CACHED_VALUE_BYTES: with_value;
            default: accept;
        }
    }

    state value_done {
        meta.value_parsed = true;
        transition accept;
    }

    state with_value {
        meta.value_parsed = true;
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

control DistCacheVerifyChecksum(inout distcache_headers_t hdr, inout distcache_metadata_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == IPV4_IHL_NO_OPTIONS,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp_ecn, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum,
            HashAlgorithm.csum16);
    }
}

/* The switch answers reads, turns invalidations into acknowledgements and
 * writes report addresses: recomputed for every IPv4 packet (unchanged
 * packets get their own checksum back). */
control DistCacheComputeChecksum(inout distcache_headers_t hdr, inout distcache_metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == IPV4_IHL_NO_OPTIONS,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp_ecn, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum,
            HashAlgorithm.csum16);
    }
}

control DistCacheDeparser(packet_out packet, in distcache_headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.innet);
        packet.emit(hdr.dc);
        packet.emit(hdr.value_words);
    }
}

#endif /* INNET_DISTCACHE_PARSER_P4 */
