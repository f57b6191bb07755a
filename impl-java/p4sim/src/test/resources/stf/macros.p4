// Preprocessor: function-like macros (nested, parenthesised and multi-line arguments, '#' and '##',
// variadic, an object-like macro naming a function-like one, a macro naming itself), the quoted
// #include form resolving to the prelude, and the include-guard and version macros p4c's core.p4
// and v1model.p4 define.
#include "core.p4"
#include "v1model.p4"
#include <core.p4>

#ifndef _CORE_P4_
#error "core.p4 does not define _CORE_P4_"
#endif
#if !defined(_V1_MODEL_P4_) || V1MODEL_VERSION != 20180101
#error "v1model.p4 guard or V1MODEL_VERSION missing"
#endif

#define WIDTH 8
#define FIELD(name) bit<WIDTH> name;
#define ADD(a, b) ((a) + (b))
#define TWICE(x) ADD(x, x)
#define PICK(c, a, b) ((c) ? (a) : (b))
#define CAT(a, b) a ## b
#define STR(x) #x
#define SUM3(...) SUM3_(__VA_ARGS__)
#define SUM3_(a, b, c) (a + b + c)
#define NOARGS() 8w0x40
#define ADDER ADD
#define b b
#if ADD(1, 2) == 3 && defined(TWICE)
#define MACROS_IN_IF 1
#endif

header h_t {
    FIELD(a)
    FIELD(b)
    FIELD(sum)
    FIELD(twice)
    FIELD(picked)
    FIELD(pasted)
    FIELD(three)
    FIELD(misc)
}

struct headers {
    h_t h;
}

struct metadata {
}

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    action set_three(bit<8> v) {
        hdr.h.three = v;
    }
    @name(STR(renamed_by_macro))
    table t {
        key = { hdr.h.a : exact; }
        actions = { set_three; NoAction; }
    }
    apply {
        sm.egress_spec = 1;
        hdr.h.sum = ADDER(hdr.h.a, hdr.h.b);
        hdr.h.twice = TWICE(hdr.h.a + 1);
        hdr.h.picked = PICK(hdr.h.a > hdr.h.b,
                            hdr.h.a,
                            hdr.h.b);
        bit<8> CAT(tmp, 1) = 7;
        hdr.h.pasted = CAT(tmp, 1) + CAT(0x, 10);
        hdr.h.three = SUM3(hdr.h.a, 1, ADD(1, 1));
        t.apply();
        hdr.h.misc = NOARGS() | (bit<8>) MACROS_IN_IF | V1MODEL_METER_COLOR_RED << 2;
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
