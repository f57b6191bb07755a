#include <core.p4>
#include <v1model.p4>

// Headers that are not a whole number of bytes, which p4c accepts for bmv2 (p4c's testdata
// table-entries-exact-bmv2.p4 has a 41-bit header): p4c's bmv2 back end adds a hidden _padding field up
// to the next byte, so extract reads the padding bits from the packet and emit writes them back, and a
// header copy carries them. p_t is 12 bits plus 4 of padding, q_t 4 bits plus 4.
header p_t {
    bit<4> a;
    bit<8> b;
}

header q_t {
    bit<1> v;
    bit<3> w;
}

struct headers {
    p_t    p;
    p_t    copy;
    q_t    q;
    p_t[2] s;
}

struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.p);
        pkt.extract(hdr.q);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        hdr.p.a = hdr.p.a + 1;
        hdr.copy = hdr.p;
        hdr.q.w = 7;
        hdr.s[1].b = hdr.s[0].b;
        sm.egress_spec = 1;
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }

control D(packet_out pkt, in headers hdr) {
    apply {
        pkt.emit(hdr.p);
        pkt.emit(hdr.copy);
        pkt.emit(hdr.q);
        pkt.emit(hdr.s);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
