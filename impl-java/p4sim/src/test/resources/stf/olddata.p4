#include <core.p4>
#include <v1model.p4>

// The deprecated resubmit(data), recirculate(data) and clone3(type, session, data) that p4c's
// v1model.p4 still declares (p4c's testdata v1model-special-ops-bmv2.p4 uses them): the data names the
// user-metadata fields carried into the new pass, {} none. keep is preserved where the data names it,
// lost never is.
header h_t {
    bit<8> op;
    bit<8> a;
    bit<8> k;
    bit<8> l;
    bit<8> t;
}

struct headers {
    h_t h;
}

struct metadata {
    bit<8> keep;
    bit<8> lost;
}

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0) {
            meta.keep = hdr.h.a;
            meta.lost = hdr.h.a;
            if (hdr.h.op == 1) {
                resubmit({ meta.keep });
            } else if (hdr.h.op == 2) {
                clone3(CloneType.I2E, 32w5, { meta.keep });
                sm.egress_spec = 1;
            } else if (hdr.h.op == 3) {
                sm.egress_spec = 1;
            } else {
                resubmit({});
            }
        } else {
            // a resubmitted (6) or recirculated (4) pass: what survived
            hdr.h.k = meta.keep;
            hdr.h.l = meta.lost;
            hdr.h.t = (bit<8>) sm.instance_type;
            sm.egress_spec = 2;
        }
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 1) {
            hdr.h.k = meta.keep;
            hdr.h.l = meta.lost;
            hdr.h.t = 1;
        } else if (hdr.h.op == 3) {
            hdr.h.op = 0x33;
            recirculate({ meta.keep });
        }
    }
}

control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
