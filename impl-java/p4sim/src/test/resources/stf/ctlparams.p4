#include <core.p4>
#include <v1model.p4>

// Controls passed as constructor arguments and applied through the parameter, and a control applied
// directly without an instance declaration (C.apply(...)), as p4c's testdata issue1566-bmv2.p4 does:
// Twice and Plus8 both receive the one Bump instance b, so they share its counter.
header h_t {
    bit<16> x;
}

struct headers {
    h_t h;
}

struct metadata { }

control bump_t(inout bit<16> x);

control Bump(inout bit<16> x) {
    counter(32w4, CounterType.packets) hits;
    apply {
        x = x + 1;
        hits.count((bit<32>) x[1:0]);
    }
}

control Twice(inout bit<16> x)(bump_t c) {
    apply {
        x = x << 1;
        c.apply(x);
    }
}

control Plus8(inout bit<16> x)(bump_t c) {
    apply {
        x = x + 8;
        c.apply(x);
    }
}

control Chain(inout bit<16> x) {
    Bump() b;
    Twice(b) t;
    Plus8(b) p;
    apply {
        t.apply(x);
        p.apply(x);
    }
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
        Chain.apply(hdr.h.x);
        sm.egress_spec = 1;
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
