// Generic functions (type parameters bound from the arguments or given, one specialisation per
// binding), functions returning a header or a struct (also used directly: f(x).field), and
// lookahead of a struct of fixed-width fields.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  a;
    bit<16> b;
}

header out_t {
    bit<8>  x;
    bit<16> y;
    bit<8>  z;
    bit<8>  w;
    bit<8>  v;
    bit<8>  ver;
    bit<8>  tos;
    bit<16> three;
}

struct pair_t {
    bit<8> lo;
    bit<8> hi;
}

struct look_t {
    bit<4> ver;
    bit<4> ihl;
    bit<8> tos;
}

struct headers {
    h_t   h;
    out_t o;
    h_t   made;
}

struct metadata {
    bit<8> ver;
    bit<8> tos;
}

T twice<T>(in T x) {
    return x + x;
}

T pick<T>(in bool first, in T x, in T y) {
    if (first) {
        return x;
    }
    return y;
}

// a generic function calling a generic function: the inner call is specialised with the outer's binding
T plus_one<T>(in T x) {
    return twice(x) - x + 1;
}

h_t make_h(in bit<8> a) {
    h_t h;
    h.setValid();
    h.a = a;
    h.b = 16w0xBEEF;
    return h;
}

pair_t split(in bit<16> v) {
    pair_t p;
    p.lo = v[7:0];
    p.hi = v[15:8];
    return p;
}

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        look_t l = pkt.lookahead<look_t>();
        m.ver = (bit<8>) l.ver;
        m.tos = l.tos;
        pkt.extract(hdr.h);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hdr.o.x = twice(hdr.h.a);
        hdr.o.y = twice(hdr.h.b);
        hdr.o.z = pick(hdr.h.a > 10, hdr.h.a, 8w10);
        pair_t p = split(hdr.h.b);
        hdr.o.w = p.hi ^ p.lo;
        hdr.o.v = split(hdr.h.b).hi;
        hdr.o.ver = m.ver;
        hdr.o.tos = m.tos;
        hdr.o.three = plus_one(twice<bit<16>>(16w1));
        hdr.made = make_h(hdr.h.a);
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
