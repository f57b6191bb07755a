// Expression semantics: width-exact wraparound, saturation, bitwise ops, shifts, slices,
// concatenation, casts, signed values, ?:, and values wider than 64 bits.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8>  a;
    bit<8>  b;
    bit<16> c;
    bit<32> d;
    int<8>  s;
}

header out8_t {
    bit<8> add;
    bit<8> sub;
    bit<8> mul;
    bit<8> sadd;
    bit<8> ssub;
    bit<8> band;
    bit<8> bor;
    bit<8> bxor;
    bit<8> bnot;
    bit<8> shl;
    bit<8> shr;
    bit<8> shlbig;
    bit<8> slice;
    bit<8> div;
    bit<8> mod;
    bit<8> neg;
    bit<8> cond;
    bit<8> flags;
}

header out16_t {
    bit<16> concat;
    bit<16> sext;
    int<8>  sshr;
    int<8>  ssat;
    bit<4>  narrow;
    bit<4>  setslice;
}

header wide_t {
    bit<128> k;
    bit<128> kplus;
    bit<128> kshl;
    bit<128> knot;
    bit<8>   kslice;
    bit<8>   keq;
}

struct headers {
    in_t     i;
    out8_t   o;
    out16_t  p;
    wide_t   w;
}

struct metadata { }

parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(h.i);
        transition accept;
    }
}

control VC(inout headers h, inout metadata m) { apply { } }

control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
    apply {
        h.o.setValid();
        h.p.setValid();
        h.w.setValid();
        bit<8> a = h.i.a;
        bit<8> b = h.i.b;
        h.o.add = a + b;
        h.o.sub = a - b;
        h.o.mul = a * b;
        h.o.sadd = a |+| b;
        h.o.ssub = b |-| a;
        h.o.band = a & b;
        h.o.bor = a | b;
        h.o.bxor = a ^ b;
        h.o.bnot = ~a;
        h.o.shl = a << 3;
        h.o.shr = a >> 2;
        h.o.shlbig = a << b;
        h.o.slice = h.i.c[11:4];
        h.o.div = a / 3;
        h.o.mod = a % 3;
        h.o.neg = -a;
        h.o.cond = a < b ? a : b;
        bit<8> flags = 0;
        if (h.i.s < 0) {
            flags = flags | 1;
        }
        if (a == 200 && b != 0) {
            flags = flags | 2;
        }
        if (!(a < b) || false) {
            flags = flags | 4;
        }
        if (h.i.d[31:31] == 1) {
            flags = flags | 8;
        }
        bool big = a >= 200;
        if (big) {
            flags = flags | 0x10;
        }
        if (h.i.s > -8s100) {
            flags = flags | 0x20;
        }
        h.o.flags = flags;
        h.p.concat = a ++ b;
        h.p.sext = (bit<16>)((int<16>) h.i.s);
        h.p.sshr = h.i.s >> 1;
        h.p.ssat = h.i.s |-| 8s100;
        h.p.narrow = (bit<4>) a;
        h.p.setslice = 0;
        h.p.setslice[2:1] = 2w3;
        bit<128> k = h.i.d ++ h.i.d ++ h.i.d ++ h.i.d;
        h.w.k = k;
        h.w.kplus = k + 1;
        h.w.kshl = k << 4;
        h.w.knot = ~k;
        h.w.kslice = k[71:64];
        h.w.keq = (k == 128w0x81020304810203048102030481020304) ? 8w1 : 8w0;
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
