#include <core.p4>
#include <v1model.p4>

// Forms of p4c's testdata (the third corpus sample, docs/p4sim.md) that p4sim once rejected:
// - a const entry whose keyset is one expression starting with '(' (a cast, or a parenthesised
//   expression), which is not a tuple of keysets;
// - constants that do not fit their type (gauntlet_various_ops-bmv2: 4 / 1w1): p4c warns and keeps
//   the low bits, two's complement for int<N>;
// - a local 'const int' (arbitrary precision: no storage, folded where used);
// - extract into '_' (issue774-4-bmv2: p.extract<Header>(_)): the header is read into a scratch
//   temporary and dropped, so the packet's cursor still moves past it;
// - v1model's log_msg, with and without data (issue2201-bmv2): bmv2 only logs, so nothing changes;
// - a control with the name of an extern function (issue1653-complex-bmv2's control verify_checksum):
//   instantiated by name in main, while a call of the name is the extern function.
enum bit<16> Kind {
    A = 0x0a00,
    B = 0xab00
}

header h_t {
    bit<8>  op;
    bit<16> k;
    bit<8>  out;
    bit<8>  d;
    bit<8>  e;
    bit<8>  f;
}

header t_t {
    bit<8> v;
}

struct headers {
    h_t h;
    t_t t;
}

struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.op) {
            // a select case's keyset may start with '(' too (the parser reads both the same way)
            (bit<8>) 2 &&& 0xff: skip_one;
            default: accept;
        }
    }
    state skip_one {
        pkt.extract<t_t>(_);
        pkt.extract(hdr.t);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action set_out(bit<8> v) { hdr.h.out = v; }
    table by_k {
        key = { hdr.h.k : ternary; }
        actions = { set_out; NoAction; }
        const default_action = NoAction();
        const entries = {
            (bit<16>) Kind.A &&& 0xff00   : set_out(1);
            ((bit<16>) Kind.B) &&& 0xff00 : set_out(2);
            (0x1234)                      : set_out(3);
        }
    }
    apply {
        sm.egress_spec = 0;
        log_msg("corpusforms3 ingress");
        log_msg("k={} t valid={} sm={}", {hdr.h.k, hdr.t.isValid(), sm});
        by_k.apply();
        // 4 becomes 1w0 (the literal takes the divisor's type, bit<1>), so the quotient is 0
        hdr.h.d = (bit<8>) (4 / 1w1);
        // 300 in bit<8> keeps its low byte: 0x2c
        hdr.h.e = 300;
        // 9 in int<4> is 0b1001: -7, sign-extended to int<8>: 0xf9
        int<4> s = 9;
        hdr.h.f = (bit<8>) ((int<8>) s);
        // a local arbitrary-precision constant, used in a width-8 context: 0x2c + 0x100 + 1 keeps 0x2d
        const int big = 0x101;
        hdr.h.e = hdr.h.e + big;
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control update_checksum(inout headers hdr, inout metadata meta) {
    apply {
        // the extern function: csum16 of 0x02 0x00 is ~0x0200 = 0xfdff, only when t is valid (op 2)
        update_checksum(hdr.t.isValid(), { hdr.h.op, 8w0 }, hdr.h.k, HashAlgorithm.csum16);
    }
}
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr); } }

V1Switch(P(), VC(), I(), E(), update_checksum(), D()) main;
