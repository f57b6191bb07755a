#include <core.p4>
#include <v1model.p4>

// mark_to_drop() without an argument: the deprecated form p4c's v1model.p4 still declares (p4c's
// testdata drop-bmv2.p4 uses it). Like mark_to_drop(standard_metadata) it sets egress_spec to the drop
// port (511) and mcast_grp to 0, here on the pipeline's own standard metadata, in ingress and egress.
header h_t {
    bit<8> op;
    bit<8> v;
}

struct headers {
    h_t h;
}

struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop();
    }
    table t {
        key = { hdr.h.op: exact; }
        actions = { drop; NoAction; }
        const entries = {
            0 : drop();
        }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        if (hdr.h.op == 0 || hdr.h.op == 2) {
            sm.mcast_grp = 1;
        }
        t.apply();
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        hdr.h.v = (bit<8>) sm.egress_port;
        if (hdr.h.op == 3) {
            mark_to_drop();
        }
    }
}

control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
