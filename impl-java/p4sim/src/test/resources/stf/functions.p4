// Functions: return values of 8, 1 (bool) and 128 bits, in/out/inout parameters, early return,
// calls inside expressions, in parsers and in controls, functions calling functions.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>   a;
    bit<8>   b;
    bit<8>   max;
    bit<8>   clamped;
    bit<8>   swapped_a;
    bit<8>   parsed;
    bit<128> wide;
}

struct headers {
    h_t h;
}

struct metadata {
    bit<8> first;
}

bit<8> max8(in bit<8> x, in bit<8> y) {
    if (x > y) {
        return x;
    }
    return y;
}

bit<8> clamp(in bit<8> v, in bit<8> hi) {
    return max8(v, hi) == v ? hi : v;
}

bool is_big(in bit<8> v) {
    return v >= 0x80;
}

void swap_out(inout bit<8> x, inout bit<8> y, out bit<8> old_x) {
    old_x = x;
    bit<8> t = x;
    x = y;
    y = t;
}

bit<128> spread(in bit<8> v) {
    return (bit<120>) 0 ++ v;
}

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        m.first = max8(pkt.lookahead<bit<8>>(), 3);
        pkt.extract(hdr.h);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.h.max = max8(hdr.h.a, hdr.h.b);
        hdr.h.clamped = clamp(hdr.h.a, 0x40) + (is_big(hdr.h.b) ? 8w1 : 8w0);
        bit<8> x = hdr.h.a;
        bit<8> y = hdr.h.b;
        swap_out(x, y, hdr.h.swapped_a);
        hdr.h.a = x;
        hdr.h.b = y;
        hdr.h.parsed = m.first;
        hdr.h.wide = spread(hdr.h.max) << 64;
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
