// lookahead of a header type (as a select key and copied into a header), and extraction after an
// advance that leaves the cursor in the middle of a byte.
#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<8> x;
}

struct headers {
    a_t peek;
    a_t a;
    a_t b;
}

struct metadata { }

parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
    state start {
        transition select(pkt.lookahead<a_t>().x) {
            0xAA: skip_nibble;
            default: plain;
        }
    }
    state skip_nibble {
        pkt.advance(4);
        pkt.extract(h.b);
        pkt.advance(4);
        transition accept;
    }
    state plain {
        h.peek = pkt.lookahead<a_t>();
        pkt.extract(h.a);
        transition accept;
    }
}

control VC(inout headers h, inout metadata m) { apply { } }

control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
    }
}

control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers h, inout metadata m) { apply { } }

control D(packet_out pkt, in headers h) {
    apply {
        pkt.emit(h);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
