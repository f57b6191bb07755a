/*
 * innet P4 data planes: turning a request into its reply in place, and keeping
 * the UDP and IPv4 lengths right when the switch changes a value's size.
 * Shared by netcache.p4 and farreach.p4.
 *
 * The record control has already set the innet fields (op, status, flags,
 * seq, vallen) and ValueStore the value words; this control does the framing.
 */
#ifndef INNET_REWRITE_P4
#define INNET_REWRITE_P4

control MessageRewrite(inout headers_t hdr,
                       inout local_metadata_t meta,
                       inout standard_metadata_t standard_metadata) {

    /* Requests go client -> server; the switch's answer goes back the way the
     * request came (FarReach §3.2: the cache "directly respond[s] to the
     * client"). Hosts share one L2 segment, so swapping suffices. */
    action swap_to_reply() {
        mac_addr_t mac = hdr.ethernet.dst_addr;
        hdr.ethernet.dst_addr = hdr.ethernet.src_addr;
        hdr.ethernet.src_addr = mac;
        ipv4_addr_t ip = hdr.ipv4.dst_addr;
        hdr.ipv4.dst_addr = hdr.ipv4.src_addr;
        hdr.ipv4.src_addr = ip;
        bit<16> port = hdr.udp.dst_port;
        hdr.udp.dst_port = hdr.udp.src_port;
        hdr.udp.src_port = port;
        hdr.innet.flags = hdr.innet.flags | FLAG_FROM_SWITCH;
        standard_metadata.egress_spec = standard_metadata.ingress_port;
    }

    /* wire-format.md §1/§2: UDP length = 8 + 32 + extlen (0) + padded value,
     * IPv4 total length = 20 + UDP length. The IPv4 checksum follows in
     * MyComputeChecksum. */
    action set_lengths_from_vallen() {
        bit<16> padded_value_bytes = (hdr.innet.vallen + 7) & 0xFFF8;
        hdr.udp.length = UDP_HEADER_BYTES + INNET_HEADER_BYTES + padded_value_bytes;
        hdr.ipv4.total_len = IPV4_HEADER_BYTES + hdr.udp.length;
    }

    apply {
        if (meta.answer_from_switch) {
            swap_to_reply();
        }
        if (meta.value_resized) {
            set_lengths_from_vallen();
        }
        /* The switch may have changed op, seq, flags or the value of any
         * key-value message it processed; encoders write UDP checksum 0 and
         * decoders accept 0 (wire-format.md §1), so 0 is always correct. */
        hdr.udp.checksum = 0;
    }
}

#endif /* INNET_REWRITE_P4 */
