// Values wider than 64 bits: bitwise operators, subtraction, negation, shifts across words,
// comparisons, slices (narrow and wide), casts in both directions, a wide header field in a table key.
#include <core.p4>
#include <v1model.p4>

header w_t {
    bit<128> a;
    bit<128> b;
}

header r_t {
    bit<128> and_;
    bit<128> or_;
    bit<128> xor_;
    bit<128> sub;
    bit<128> shr;
    bit<64>  lo;
    bit<64>  hi;
    bit<8>   flags;
    bit<72>  mid;
    bit<128> widened;
    bit<128> neg;
    bit<8>   by_key;
}

struct headers {
    w_t w;
    r_t r;
}

struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.w);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    action hit(bit<8> v) { hdr.r.by_key = v; }
    table by_key {
        key = { hdr.w.a : exact; }
        actions = { hit; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 1;
        hdr.r.setValid();
        bit<128> a = hdr.w.a;
        bit<128> b = hdr.w.b;
        hdr.r.and_ = a & b;
        hdr.r.or_ = a | b;
        hdr.r.xor_ = a ^ b;
        hdr.r.sub = a - b;
        hdr.r.shr = a >> 68;
        hdr.r.lo = (bit<64>) a;
        hdr.r.hi = a[127:64];
        bit<8> flags = 0;
        if (a < b) { flags = flags | 1; }
        if (a > b) { flags = flags | 2; }
        if (a <= a) { flags = flags | 4; }
        if (a != b) { flags = flags | 8; }
        if (a == a) { flags = flags | 16; }
        hdr.r.flags = flags;
        hdr.r.mid = a[99:28];
        hdr.r.widened = (bit<128>) hdr.r.lo;
        hdr.r.neg = -a;
        by_key.apply();
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
