#include <core.p4>
#include <v1model.p4>

// P4Runtime tests of action profiles, action selectors and parser value sets (P4RuntimeProfilesTest):
// prof_t has an inline action_profile, sel_t the action_selector sel, direct_t no profile; the parser
// marks a frame whose type is in value set `types` (path 1), and then (k, out) in `pairs` (path 2).
header h_t {
    bit<16> type;
    bit<8>  k;
    bit<16> flow;
    bit<8>  out;
    bit<8>  path;
}

struct pair_t {
    bit<8> k;
    bit<8> out;
}

struct headers { h_t h; }
struct metadata { bit<8> path; }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    value_set<bit<16>>(2) types;
    value_set<pair_t>(4) pairs;

    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.type) {
            types: typed;
            default: accept;
        }
    }
    state typed {
        meta.path = 1;
        transition select(hdr.h.k, hdr.h.out) {
            pairs: paired;
            default: accept;
        }
    }
    state paired {
        meta.path = 2;
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action set_out(bit<8> v) { hdr.h.out = v; }
    action set_port(bit<8> v, bit<9> port) { hdr.h.out = v; sm.egress_spec = port; }
    @max_group_size(4) action_selector(HashAlgorithm.crc16, 32w64, 32w16) sel;

    table prof_t {
        key = { hdr.h.k: exact; }
        actions = { set_out; NoAction; }
        implementation = action_profile(32w4);
        default_action = NoAction();
    }
    table sel_t {
        key = { hdr.h.k: exact; hdr.h.flow: selector; }
        actions = { set_port; NoAction; }
        implementation = sel;
        default_action = NoAction();
    }
    table direct_t {
        key = { hdr.h.k: exact; }
        actions = { set_out; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 1;
        hdr.h.path = meta.path;
        prof_t.apply();
        sel_t.apply();
        direct_t.apply();
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
