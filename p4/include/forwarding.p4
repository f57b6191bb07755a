/*
 * innet P4 data planes: validation, L3 forwarding inside a rack, drop
 * accounting, and classification of key-value messages. Used by all programs.
 */
#ifndef INNET_FORWARDING_P4
#define INNET_FORWARDING_P4

/* Frame checks of wire-format.md §1 that the parser cannot express. Sets a
 * drop reason; DropAccounting performs the drop. */
control PacketValidation(in headers_t hdr,
                         inout local_metadata_t meta,
                         in standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.parser_error != error.NoError) {
            meta.drop_reason = DROP_PARSER_ERROR;
        } else if (!hdr.ipv4.isValid()) {
            meta.drop_reason = DROP_NOT_IPV4;
        } else if (hdr.ipv4.version != IPV4_VERSION
                   || hdr.ipv4.ihl != IPV4_IHL_NO_OPTIONS
                   || (hdr.ipv4.flags & IPV4_FLAG_MF) != 0
                   || hdr.ipv4.frag_offset != 0) {
            meta.drop_reason = DROP_UNSUPPORTED_IPV4;
        } else if (standard_metadata.checksum_error == 1) {
            meta.drop_reason = DROP_BAD_IPV4_CHECKSUM;
        }
    }
}

/* wire-format.md "Addressing in a rack": forwarding by IPv4 destination
 * through a control-plane-installed table. All hosts of a rack share one L2
 * segment, so MAC addresses are already the destination's and TTL is left
 * alone (hosts' codecs expect TTL 64). */
control Forwarding(in headers_t hdr,
                   inout local_metadata_t meta,
                   inout standard_metadata_t standard_metadata) {

    action set_egress_port(port_t port) {
        standard_metadata.egress_spec = port;
    }

    action drop_no_route() {
        meta.drop_reason = DROP_NO_ROUTE;
    }

    table ipv4_forward {
        key = {
            hdr.ipv4.dst_addr: exact;
        }
        actions = {
            set_egress_port;
            drop_no_route;
        }
        default_action = drop_no_route();
        size = IPV4_FORWARD_TABLE_SIZE;
    }

    apply {
        ipv4_forward.apply();
    }
}

/* The only place packets are dropped in ingress: the reason is kept in
 * metadata (visible in traces) and counted per reason for the control plane. */
control DropAccounting(inout local_metadata_t meta,
                       inout standard_metadata_t standard_metadata) {

    /* drop_count[reason] = packets dropped for that reason since reset */
    register<bit<32>>(DROP_REASON_COUNT) drop_count;

    apply {
        if (meta.drop_reason != DROP_NONE) {
            bit<32> dropped;
            drop_count.read(dropped, (bit<32>) meta.drop_reason);
            drop_count.write((bit<32>) meta.drop_reason, dropped + 1);
            mark_to_drop(standard_metadata);
        }
    }
}

/* Which key-value messages the cache logic looks at (wire-format.md §3). */
control KvClassify(in headers_t hdr, inout local_metadata_t meta) {
    apply {
        meta.is_client_request = false;
        meta.is_server_reply = false;
        meta.is_write = false;
        if (meta.is_kv) {
            if (hdr.udp.dst_port == UDP_PORT_KV) {
                if (hdr.innet.op == OP_GET) {
                    meta.is_client_request = true;
                } else if (hdr.innet.op == OP_PUT || hdr.innet.op == OP_DEL) {
                    meta.is_client_request = true;
                    meta.is_write = true;
                }
            } else if (hdr.udp.src_port == UDP_PORT_KV) {
                meta.is_server_reply = true;
            }
        }
    }
}

#endif /* INNET_FORWARDING_P4 */
