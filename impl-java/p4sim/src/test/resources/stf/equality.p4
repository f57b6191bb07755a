// Equality of headers, structs and header stacks (P4-16 8.x): headers are equal when both are
// invalid or both valid with equal fields; structs field by field; stacks element by element.
// An initialiser may be an operand: {a, b} is a valid header, {#} the invalid one.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
}

header r_t {
    bit<8> flags;
}

struct pair_t {
    h_t    x;
    bit<8> n;
}

struct headers {
    r_t    r;
    h_t    p;
    h_t    q;
    h_t[2] s;
}

struct metadata {
}

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.p);
        pkt.extract(hdr.q);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.r.setValid();
        hdr.r.flags = 0;
        if (hdr.p == hdr.q) {
            hdr.r.flags = hdr.r.flags | 1;
        }
        if (hdr.p != hdr.s[0]) {
            hdr.r.flags = hdr.r.flags | 2;
        }
        h_t[2] tmp;
        tmp[0] = hdr.p;
        tmp[1] = hdr.q;
        if (tmp == hdr.s) {
            hdr.r.flags = hdr.r.flags | 4;
        }
        // two invalid headers with different field values are equal
        h_t inv;
        h_t inv2 = hdr.p;
        inv2.setInvalid();
        if (inv == inv2) {
            hdr.r.flags = hdr.r.flags | 8;
        }
        pair_t x = { hdr.p, 1 };
        pair_t y = { hdr.q, 1 };
        if (x == y) {
            hdr.r.flags = hdr.r.flags | 16;
        }
        if (hdr.p == { hdr.q.a, hdr.q.b }) {
            hdr.r.flags = hdr.r.flags | 32;
        }
        if (inv2 == {#}) {
            hdr.r.flags = hdr.r.flags | 64;
        }
        if ({#} == hdr.p) {
            hdr.r.flags = hdr.r.flags | 128;
        }
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
