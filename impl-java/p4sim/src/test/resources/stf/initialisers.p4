// Initialisers: list and named-field initialisers for structs and headers (assignments, local
// declarations, local and top-level constants, arguments, nested structs), {#} (the invalid header), integer
// literals taking their field's width, and a swap through an initialiser that reads its target.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  a;
    bit<16> b;
    bit<8>  c;
}

header x_t {
    bit<8> p;
    bit<8> q;
}

struct pair_t {
    bit<8> first;
    bit<8> second;
}

struct nest_t {
    pair_t inner;
    bit<8> tag;
}

struct headers {
    h_t h;
    x_t x;
    x_t y;
}

struct metadata {
    pair_t pr;
}

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        pkt.extract(hdr.y);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

// a top-level struct constant with a nested initialiser
const nest_t NEST = { { 3, 4 }, 5 };

bit<8> total(in pair_t p) {
    return p.first + p.second;
}

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    const pair_t TEN_TWENTY = { first = 10, second = 20 };
    apply {
        sm.egress_spec = 1;
        // a list initialiser with untyped literals: widths from the fields (8, 16, 8)
        hdr.h = { hdr.h.a + 1, 0x1234, 7 };
        // named fields in any order; the header becomes valid
        hdr.x = { q = 2, p = hdr.h.a };
        // swap through an initialiser that reads the target it writes
        m.pr = { first = 1, second = 2 };
        m.pr = { m.pr.second, m.pr.first };
        nest_t n = NEST;
        pair_t made = { second = 10, first = 9 };
        hdr.h.c = total(m.pr) + total(TEN_TWENTY) + n.inner.second + n.tag + made.second;
        // {#} makes a header invalid: y is not emitted when the first byte was 0xff
        if (hdr.h.a == 0x00) {
            hdr.y = {#};
        }
    }
}

control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata m) { apply { } }

control D(packet_out pkt, in headers hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.x);
        pkt.emit(hdr.y);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
