// Statements and arguments: for loops (three-clause, over a range, a list, a header stack; break and
// continue), compound assignment (every operator), named arguments and default parameter values
// (actions, functions, controls), '_' for out and inout arguments, slices as out/inout arguments, nested
// slices as assignment targets, stack indices that are int constants, named constructor arguments.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  a;
    bit<8>  b;
    bit<8>  loop_sum;
    bit<8>  range_sum;
    bit<8>  stack_sum;
    bit<8>  found;
    bit<8>  add;
    bit<8>  sub;
    bit<8>  mul;
    bit<8>  or_;
    bit<8>  and_;
    bit<8>  xor_;
    bit<8>  shl;
    bit<8>  shr;
    bit<8>  sat_add;
    bit<8>  sat_sub;
    bit<8>  named;
    bit<8>  defaulted;
    bit<16> sliced;
    bit<8>  nested;
    bit<8>  ctl;
    bit<8>  list_sum;
}

header e_t {
    bit<8> v;
}

struct headers {
    h_t    h;
    e_t[3] s;
}

struct metadata {
}

const int SECOND = 1;

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

bit<8> scaled(in bit<8> x, in bit<8> factor = 2, in bit<8> offset = 1) {
    return x * factor + offset;
}

void split(in bit<8> v, out bit<4> hi, out bit<4> lo) {
    hi = v[7:4];
    lo = v[3:0];
}

void bump(inout bit<4> x) {
    x = x + 1;
}

control Add(inout bit<8> x, in bit<8> amount = 5) {
    apply {
        x = x + amount;
    }
}

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    Add() add5;
    counter(type = CounterType.packets, size = 4) by_found;

    action set(bit<8> first, bit<8> second) {
        hdr.h.named = first - second;
    }

    apply {
        sm.egress_spec = 1;

        // sum 0..a-1 with a three-clause loop, skipping 3 and stopping at 10
        bit<8> sum = 0;
        for (bit<8> i = 0; i < hdr.h.a; i = i + 1) {
            if (i == 3) {
                continue;
            }
            if (i == 10) {
                break;
            }
            sum += i;
        }
        hdr.h.loop_sum = sum;

        // inclusive range, bounds evaluated once
        bit<8> rs = 0;
        for (bit<8> k in 1 .. hdr.h.b) {
            rs = rs + k;
        }
        hdr.h.range_sum = rs;

        // a header stack, element by element; stop at the first element over 0x80
        bit<8> ss = 0;
        hdr.h.found = 0xff;
        bit<8> index = 0;
        for (e_t e in hdr.s) {
            if (e.v > 0x80) {
                hdr.h.found = index;
                break;
            }
            ss = ss + e.v;
            index += 1;
        }
        hdr.h.stack_sum = ss;

        bit<8> v = hdr.h.a;
        hdr.h.add = v;     hdr.h.add += 3;
        hdr.h.sub = v;     hdr.h.sub -= 3;
        hdr.h.mul = v;     hdr.h.mul *= 3;
        hdr.h.or_ = v;     hdr.h.or_ |= 0xf0;
        hdr.h.and_ = v;    hdr.h.and_ &= 0x0f;
        hdr.h.xor_ = v;    hdr.h.xor_ ^= 0xff;
        hdr.h.shl = v;     hdr.h.shl <<= 2;
        hdr.h.shr = v;     hdr.h.shr >>= 1;
        hdr.h.sat_add = v; hdr.h.sat_add |+|= 0xf0;
        hdr.h.sat_sub = v; hdr.h.sat_sub |-|= 0x10;

        set(second = hdr.h.b, first = hdr.h.a);
        hdr.h.defaulted = scaled(hdr.h.a) + scaled(x = hdr.h.a, offset = 0) + scaled(x = 1, factor = 1);

        // slices as out and inout arguments, '_' for an unwanted out argument
        hdr.h.sliced = 0;
        split(hdr.h.a, hdr.h.sliced[15:12], _);
        split(hdr.h.b, _, hdr.h.sliced[3:0]);
        bump(hdr.h.sliced[3:0]);

        // a nested slice as an assignment target: bits 5..4 of the field
        hdr.h.nested = 0;
        hdr.h.nested[7:2][3:2] = 2w3;

        // an int constant as a stack index
        hdr.s[SECOND].v += 1;

        // named arguments of a constructor and of an extern method
        by_found.count(index = (bit<32>) hdr.h.found[1:0]);

        // a list of values, one of them read from the packet
        hdr.h.list_sum = 0;
        for (bit<8> item in { 1, hdr.h.b, 3 }) {
            hdr.h.list_sum = hdr.h.list_sum + item;
        }

        hdr.h.ctl = hdr.h.a;
        add5.apply(hdr.h.ctl);
        add5.apply(amount = 1, x = hdr.h.ctl);
    }
}

control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata m) { apply { } }

control D(packet_out pkt, in headers hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.s);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
