/*
 * pegasus.p4: parser, checksum controls and deparser. Same framing checks as
 * parser.p4 (wire-format.md §1); on UDP 5010 the innet header and, when magic
 * is 0xA1 and extlen is 8, the Pegasus extension. The switch never reads
 * values (Pegasus keeps only metadata, §4.1), so they stay unparsed payload.
 */
#ifndef INNET_PEGASUS_PARSER_P4
#define INNET_PEGASUS_PARSER_P4

parser PegasusParser(packet_in packet,
                     out pegasus_headers_t hdr,
                     inout pegasus_metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    state start {
        meta.drop_reason = DROP_NONE;
        meta.peg_drop = 0;
        meta.is_pegasus = false;
        meta.is_request = false;
        meta.is_write = false;
        meta.is_reply = false;
        meta.is_control = false;
        meta.dir_hit = false;
        meta.dir_idx = 0;
        meta.key_state = KEY_INACTIVE;
        meta.route_to_server = false;
        meta.dest_server = 0;
        meta.report_op = 0;
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
            (UDP_PORT_PEGASUS, _): parse_innet;
            (_, UDP_PORT_PEGASUS): parse_innet;
            default: accept;
        }
    }

    state parse_innet {
        packet.extract(hdr.innet);
        transition select(hdr.innet.magic, hdr.innet.extlen) {
            (INNET_MAGIC, PEG_EXT_BYTES): parse_pegasus;
            /* anything else on 5010 is relayed; the receiver's codec rejects it */
            default: accept;
        }
    }

    state parse_pegasus {
        packet.extract(hdr.peg);
        meta.is_pegasus = true;
        transition accept;
    }
}

control PegasusVerifyChecksum(inout pegasus_headers_t hdr, inout pegasus_metadata_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == IPV4_IHL_NO_OPTIONS,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp_ecn, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum,
            HashAlgorithm.csum16);
    }
}

/* The switch rewrites destination addresses (address rewrite table, §8.1)
 * and report addresses: the checksum is recomputed for every IPv4 packet. */
control PegasusComputeChecksum(inout pegasus_headers_t hdr, inout pegasus_metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == IPV4_IHL_NO_OPTIONS,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp_ecn, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum,
            HashAlgorithm.csum16);
    }
}

control PegasusDeparser(packet_out packet, in pegasus_headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.innet);
        packet.emit(hdr.peg);
    }
}

#endif /* INNET_PEGASUS_PARSER_P4 */
