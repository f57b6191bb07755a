#include <core.p4>
#include <v1model.p4>

// switch (t.apply().action_run) when the table misses and has no default_action: the default action is
// NoAction, which is not a label, so the `default` case runs (or nothing, when there is none).
header h_t {
    bit<8> k;
    bit<8> out1;
    bit<8> out2;
}

struct headers { h_t h; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action a1() { hdr.h.out1 = 1; }
    action a2() { hdr.h.out1 = 2; }
    table with_default_case {
        key = { hdr.h.k: exact; }
        actions = { a1; a2; }
    }
    table without_default_case {
        key = { hdr.h.k: exact; }
        actions = { a1; a2; }
    }
    apply {
        sm.egress_spec = 1;
        switch (with_default_case.apply().action_run) {
            a1: { hdr.h.out2 = 0x11; }
            default: { hdr.h.out2 = 0xDD; }
        }
        switch (without_default_case.apply().action_run) {
            a2: { hdr.h.out2 = hdr.h.out2 | 0x20; }
        }
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
