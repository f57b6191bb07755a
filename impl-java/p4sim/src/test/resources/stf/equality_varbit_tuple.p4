// == and != on headers (equal when both are invalid, or both valid with equal fields), headers with
// a varbit field, structs, tuples, header unions (member by member) and header stacks (element by
// element); varbit headers extracted into a header stack. equality.p4 has the cases with
// initialisers ({a, b}, {#}) as operands.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
}

header v_t {
    bit<8>     n;
    varbit<16> d;
}

header res_t {
    bit<8> bits;
}

header_union u_t {
    h_t x;
    h_t y;
}

struct pair_t {
    h_t    p;
    bit<8> tag;
}

struct headers {
    h_t    h1;
    h_t    h2;
    v_t[2] vs;
    res_t  res;
    res_t  unions;
}

struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h1);
        pkt.extract(hdr.h2);
        transition item;
    }
    state item {
        pkt.extract(hdr.vs.next, (bit<32>) pkt.lookahead<bit<8>>() * 8);
        transition select(hdr.vs.nextIndex) {
            2: accept;
            default: item;
        }
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        bit<8> r = 0;
        h_t invalid1;
        h_t invalid2;
        if (hdr.h1 == hdr.h2) { r = r | 1; }
        if (invalid1 == invalid2) { r = r | 2; }
        if (hdr.h1 == invalid1) { r = r | 4; }
        if (hdr.vs[0] == hdr.vs[1]) { r = r | 8; }
        pair_t p1;
        pair_t p2;
        p1.p = hdr.h1;
        p1.tag = 1;
        p2.p = hdr.h2;
        p2.tag = 1;
        if (p1 == p2) { r = r | 16; }
        tuple<bit<8>, h_t> t1 = { 1, hdr.h1 };
        tuple<bit<8>, h_t> t2 = { 1, hdr.h2 };
        if (t1 == t2) { r = r | 32; }
        v_t[2] w = hdr.vs;
        if (w == hdr.vs) { r = r | 64; }
        w[1].n = w[1].n + 1;
        if (w != hdr.vs) { r = r | 128; }
        hdr.res.setValid();
        hdr.res.bits = r;
        bit<8> ur = 0;
        u_t u1;
        u_t u2;
        u_t u3;
        u_t none1;
        u_t none2;
        u1.x = hdr.h1;
        u2.x = hdr.h2;
        u3.y = hdr.h1;
        if (u1 == u2) { ur = ur | 1; }
        if (u1 != u3) { ur = ur | 2; }
        if (none1 == none2) { ur = ur | 4; }
        if (u1 == none1) { ur = ur | 8; }
        hdr.unions.setValid();
        hdr.unions.bits = ur;
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
