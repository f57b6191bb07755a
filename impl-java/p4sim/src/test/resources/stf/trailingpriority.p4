#include <core.p4>
#include <v1model.p4>

// p4c's entry annotation after the action (key : action @priority(N);, p4c's grammar position), as p4c's
// testdata table-entries-priority-bmv2 uses it: N is bmv2's priority, the entries without one get their
// 1-based position (the numbering that reproduces that test's expected outputs), the smaller wins.
header h_t {
    bit<8> x;
    bit<8> first;
    bit<8> second;
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
    action s1(bit<8> v) { hdr.h.first = v; }
    action s2(bit<8> v) { hdr.h.second = v; }
    table t1 {
        key = { hdr.h.x: ternary; }
        actions = { s1; }
        const entries = {
            0x01 &&& 0x0F : s1(1) @priority(3);
            0x11          : s1(2);
            0x11 &&& 0xF0 : s1(3) @priority(1);
            0x00 &&& 0x00 : s1(4) @priority(9);
        }
        default_action = s1(0xEE);
    }
    table t2 {
        key = { hdr.h.x: ternary; }
        actions = { s2; }
        const entries = {
            0x11          : s2(2);
            0x11 &&& 0xF0 : s2(3) @priority(2);
        }
        default_action = s2(0xEE);
    }
    apply {
        t1.apply();
        t2.apply();
        sm.egress_spec = 1;
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
