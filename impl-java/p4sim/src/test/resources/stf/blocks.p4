// Constructor-parameterised controls and parsers (one instance per argument value, also in a
// select case and in V1Switch's arguments), controls taking an extern argument, and extern
// instances declared at top level, shared by ingress, egress and a top-level action.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  tag;
    bit<2>  idx;
    bit<6>  pad;
    bit<16> val;
    bit<16> val2;
    bit<16> seen;
}

struct headers {
    h_t h;
}

struct metadata { }

register<bit<16>>(4) hits;
counter(4, CounterType.packets) seen;

action count_seen(bit<32> i) {
    seen.count(i);
}

control Bump(inout bit<16> v)(bit<16> step) {
    apply {
        v = v + step;
    }
}

control Count(in bit<2> idx, register<bit<16>> r, out bit<16> now) {
    apply {
        bit<16> cur;
        r.read(cur, (bit<32>) idx);
        now = cur + 1;
        r.write((bit<32>) idx, now);
    }
}

parser Sub(packet_in pkt, out h_t h)(bit<8> want) {
    state start {
        pkt.extract(h);
        transition select(h.tag) {
            want: accept;
        }
    }
}

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    Sub(8w0x5a) sub;
    state start {
        sub.apply(pkt, hdr.h);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    Bump(16w5) by5;
    Bump(16w100) by100;
    Count() count;
    apply {
        sm.egress_spec = 1;
        if (sm.parser_error != error.NoError) {
            sm.egress_spec = 2;
            exit;
        }
        by5.apply(hdr.h.val);
        by100.apply(hdr.h.val2);
        count.apply(hdr.h.idx, hits, hdr.h.seen);
        count_seen((bit<32>) hdr.h.idx);
    }
}

control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm)(bit<2> slot) {
    Count() total;
    apply {
        bit<16> ignored;
        total.apply(slot, hits, ignored);
    }
}

control CC(inout headers hdr, inout metadata m) { apply { } }

control D(packet_out pkt, in headers hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(P(), VC(), I(), E(2w3), CC(), D()) main;
