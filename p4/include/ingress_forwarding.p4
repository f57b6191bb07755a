/*
 * innet P4 data planes: forwarding and drop accounting.
 *
 * A FRAGMENT OF MyIngress: this file is #included inside the body of each
 * program's MyIngress control (after "control MyIngress(...) {"), so the
 * names below are MyIngress.ipv4_forward, MyIngress.drop_count, ... for the
 * control plane. Why fragments and not sub-controls: p4sim, the project's P4
 * target, instantiates only externs inside controls (no control instances),
 * so each program has one flat ingress control; fragments keep one copy of
 * what the programs share. The actions here are straight-line (no if):
 * p4c's bmv2 back end only recently accepts conditionals inside actions, so
 * all control flow stays in apply blocks.
 *
 * Used by the apply block as:
 *     validate_frame();
 *     if (meta.drop_reason == DROP_NONE) { ipv4_forward.apply(); }
 *     ...
 *     if (meta.drop_reason != DROP_NONE) { drop_with_reason(); }
 */

/* wire-format.md "Addressing in a rack": forwarding by IPv4 destination
 * through a control-plane-installed table. All hosts of a rack share one L2
 * segment, so MAC addresses are already the destination's, and TTL is left
 * alone (hosts' codecs expect TTL 64). */
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

/* drop_count[reason] = packets dropped for that reason (DROP_* in defines.p4)
 * since the control plane last reset it. */
register<bit<32>>(DROP_REASON_COUNT) drop_count;

/* The only place ingress drops: the reason stays in meta.drop_reason (visible
 * in p4sim traces) and is counted. */
action drop_with_reason() {
    bit<32> dropped;
    drop_count.read(dropped, (bit<32>) meta.drop_reason);
    drop_count.write((bit<32>) meta.drop_reason, dropped + 1);
    mark_to_drop(standard_metadata);
}

/* Frame checks of wire-format.md §1 that the parser cannot express; the first
 * failing check names the reason. Straight-line: the conditional expression
 * evaluates only the branch it selects, so ipv4 fields are read only when
 * the header is valid. */
action validate_frame() {
    meta.drop_reason =
        (standard_metadata.parser_error != error.NoError) ? DROP_PARSER_ERROR :
        (!hdr.ipv4.isValid()) ? DROP_NOT_IPV4 :
        (hdr.ipv4.version != IPV4_VERSION
            || hdr.ipv4.ihl != IPV4_IHL_NO_OPTIONS
            || (hdr.ipv4.flags & IPV4_FLAG_MF) != 0
            || hdr.ipv4.frag_offset != 0) ? DROP_UNSUPPORTED_IPV4 :
        (standard_metadata.checksum_error == 1) ? DROP_BAD_IPV4_CHECKSUM :
        DROP_NONE;
}
