// Parser value sets: value_set<bit<16>> on one select key and value_set<struct> on two keys,
// filled by the control plane (STF pvs_add, as bmv2's runtime CLI names it); an empty set matches nothing.
#include <core.p4>
#include <v1model.p4>

header eth_t {
    bit<16> type;
}

header two_t {
    bit<8> a;
    bit<8> b;
}

header res_t {
    bit<8> path;
}

struct pair_t {
    bit<8> a;
    bit<8> b;
}

struct headers {
    eth_t eth;
    two_t two;
    res_t res;
}

struct metadata {
    bit<8> path;
}

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    value_set<bit<16>>(2) types;
    value_set<pair_t>(4) pairs;

    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.type) {
            0x0800: fixed;
            types: parse_two;
            default: accept;
        }
    }
    state fixed {
        m.path = 1;
        transition accept;
    }
    state parse_two {
        m.path = 2;
        pkt.extract(hdr.two);
        transition select(hdr.two.a, hdr.two.b) {
            pairs: marked;
            default: accept;
        }
    }
    state marked {
        m.path = 3;
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.res.setValid();
        hdr.res.path = m.path;
    }
}

control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata m) { apply { } }

control D(packet_out pkt, in headers hdr) {
    apply {
        pkt.emit(hdr);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
