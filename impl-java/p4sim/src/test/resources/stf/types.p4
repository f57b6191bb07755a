// Types: 'type' (a new type) in a header, as a table key and in casts; a struct nested in a header
// (its fields are extracted and emitted in place); tuple<...> variables built from list
// expressions, copied, indexed with constants and hashed as a field list.
#include <core.p4>
#include <v1model.p4>

type bit<16> Tag_t;

struct nibbles_t {
    bit<4> hi;
    bit<4> lo;
}

header h_t {
    bit<8>    a;
    nibbles_t p;
    Tag_t     tag;
    bit<8>    sum;
    bit<8>    t0;
    bit<16>   t1;
}

struct headers {
    h_t h;
}

struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    action fwd(bit<9> port) {
        sm.egress_spec = port;
    }
    action to_port_3() {
        sm.egress_spec = 3;
    }
    table by_tag {
        key = { hdr.h.tag : exact; }
        actions = { fwd; to_port_3; }
        default_action = to_port_3();
    }
    apply {
        tuple<bit<8>, Tag_t> t = { hdr.h.a, hdr.h.tag };
        tuple<bit<8>, Tag_t> u;
        u = t;
        hdr.h.t0 = u[0] + 1;
        hdr.h.t1 = (bit<16>) u[1] + 16w0x1000;
        bit<4> tmp = hdr.h.p.hi;
        hdr.h.p.hi = hdr.h.p.lo;
        hdr.h.p.lo = tmp;
        hash(hdr.h.sum, HashAlgorithm.identity, 8w0, t, 16w256);
        if (hdr.h.tag == (Tag_t) 16w0xFFFF) {
            hdr.h.tag = (Tag_t) 16w0;
        }
        by_tag.apply();
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
