// Arguments in a table's actions list bind the action's directional parameters (P4-16 14.2.1.2):
// the control plane supplies only the directionless ones; default_action repeats the binding.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> x;
}

struct headers {
    h_t h;
}

struct metadata {
}

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

action drop(inout standard_metadata_t smeta) {
    mark_to_drop(smeta);
}

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    action flip(inout bit<8> target, bit<8> v) {
        target = target ^ v;
    }
    action set_port(inout standard_metadata_t meta, bit<9> port) {
        meta.egress_spec = port;
    }
    table t {
        key = { hdr.h.a : exact; }
        actions = { flip(hdr.h.x); set_port(sm); }
        default_action = flip(hdr.h.x, 0x0f);
    }
    table t2 {
        key = { hdr.h.a : exact; }
        actions = { drop(sm); NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 1;
        t.apply();
        t2.apply();
    }
}

control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata m) { apply { } }

control D(packet_out pkt, in headers hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
