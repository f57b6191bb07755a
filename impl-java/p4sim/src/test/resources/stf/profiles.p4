#include <core.p4>
#include <v1model.p4>

// A table with an inline action_profile, and two tables sharing one action_selector instance (crc16
// over the selector keys). Control-plane tests: ActionProfileTest.
header h_t {
    bit<8>  k;
    bit<16> flow;
    bit<8>  out1;
    bit<8>  out2;
}

struct headers { h_t h; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action set1(bit<8> v) { hdr.h.out1 = v; }
    action set2(bit<8> v, bit<9> port) { hdr.h.out2 = v; sm.egress_spec = port; }
    action_selector(HashAlgorithm.crc16, 32w64, 32w16) sel;

    table prof_t {
        key = { hdr.h.k: exact; }
        actions = { set1; NoAction; }
        implementation = action_profile(32w16);
        default_action = NoAction();
    }
    table sel_t {
        key = { hdr.h.k: ternary; hdr.h.flow: selector; }
        actions = { set2; NoAction; }
        implementation = sel;
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 1;
        prof_t.apply();
        sel_t.apply();
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
