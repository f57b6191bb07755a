// Controls instantiated inside a control: per-instance tables and registers (named I.c1.t, I.c2.t),
// in/inout parameters with copy-in/copy-out, return ending the instance, exit ending everything.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> k;
    bit<8> after;
}

struct headers {
    h_t h;
}

struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control Count(inout bit<8> x, in bit<8> by) {
    register<bit<8>>(1) total;
    action add() {
        x = x + by;
    }
    table t {
        key = { by : exact; }
        actions = { add; NoAction; }
        default_action = NoAction();
    }
    apply {
        t.apply();
        bit<8> seen;
        total.read(seen, 0);
        total.write(0, seen + 1);
        if (by == 9) {
            exit;
        }
        if (by == 7) {
            return;
        }
        x = x | 0x80;
    }
}

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    Count() c1;
    Count() c2;
    apply {
        sm.egress_spec = 1;
        c1.apply(hdr.h.a, 1);
        c2.apply(hdr.h.b, hdr.h.k);
        hdr.h.after = 0xAF;
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
