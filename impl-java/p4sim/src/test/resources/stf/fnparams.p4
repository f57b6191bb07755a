#include <core.p4>
#include <v1model.p4>

// A function parameter without a direction, which p4c accepts and treats as 'in' (p4c's testdata
// gauntlet_hdr_in_value-bmv2.p4 passes a struct that way): the function reads its argument, and an
// initialiser may be the argument.
header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> sum;
    bit<8> twice;
    bit<8> init;
}

struct pair_t {
    bit<8> x;
    bit<8> y;
}

struct headers {
    h_t h;
}

struct metadata { }

bit<8> add(pair_t p) {
    return p.x + p.y;
}

bit<8> twice(bit<8> v) {
    return v + v;
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
        pair_t p = { hdr.h.a, hdr.h.b };
        hdr.h.sum = add(p);
        hdr.h.twice = twice(hdr.h.a);
        hdr.h.init = add({ 8w3, hdr.h.b });
        sm.egress_spec = 1;
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
