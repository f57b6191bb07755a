#include <core.p4>
#include <v1model.p4>

// Serializable-enum table keys: exact and ternary, in const entries (by member) and from the control
// plane (by value), and @priority on const entries both before the entry and as `priority =`.
enum bit<8> Kind { A = 1, B = 2, C = 0x10 }

header h_t {
    Kind   k;
    bit<8> x;
    bit<8> out1;
    bit<8> out2;
    bit<8> out3;
}

struct headers { h_t h; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action s1(bit<8> v) { hdr.h.out1 = v; }
    action s2(bit<8> v) { hdr.h.out2 = v; }
    action s3(bit<8> v) { hdr.h.out3 = v; }
    table exact_enum {
        key = { hdr.h.k: exact; }
        actions = { s1; NoAction; }
        const entries = {
            Kind.A : s1(0xA1);
            Kind.B : s1(0xB1);
        }
        default_action = NoAction();
    }
    table ternary_enum {
        key = { hdr.h.k: ternary; }
        actions = { s2; NoAction; }
        default_action = NoAction();
    }
    // larger priority wins; both ways of writing it
    table prio {
        key = { hdr.h.x: ternary; }
        actions = { s3; }
        const entries = {
            @priority(10) 0x0 &&& 0xF0 : s3(0x10);
            priority = 20 : 0x05 &&& 0xFF : s3(0x20);
            @priority(30) 0x06 &&& 0xFF : s3(0x30);
            priority = 5 : 0x06 &&& 0x0F : s3(0x05);
        }
        default_action = s3(0xEE);
    }
    apply {
        sm.egress_spec = 1;
        exact_enum.apply();
        ternary_enum.apply();
        prio.apply();
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
