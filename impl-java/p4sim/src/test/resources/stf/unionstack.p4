// Stacks of header unions: extract(us.next.member) fills the member of element nextIndex (the
// element's other member becomes invalid) and advances nextIndex, StackOutOfBounds when full;
// us[i].isValid(), us[i].member, setValid on a member of an element, push_front, emit.
#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<8> kind;
    bit<8> x;
}

header b_t {
    bit<8>  kind;
    bit<16> y;
}

header_union ab_t {
    a_t a;
    b_t b;
}

header cnt_t {
    bit<8> n;
    bit<8> valid0;
    bit<8> b1;
    bit<8> a1;
}

struct headers {
    cnt_t   cnt;
    ab_t[3] us;
}

struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.cnt);
        transition next_item;
    }
    state next_item {
        transition select(pkt.lookahead<bit<8>>()) {
            0x0a: item_a;
            0x0b: item_b;
            default: accept;
        }
    }
    state item_a {
        pkt.extract(hdr.us.next.a);
        transition next_item;
    }
    state item_b {
        pkt.extract(hdr.us.next.b);
        transition next_item;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.cnt.n = (bit<8>) hdr.us.nextIndex;
        hdr.cnt.valid0 = hdr.us[0].isValid() ? 8w1 : 8w0;
        hdr.cnt.b1 = hdr.us[1].b.isValid() ? 8w1 : 8w0;
        hdr.cnt.a1 = hdr.us[1].a.isValid() ? 8w1 : 8w0;
        if (hdr.us[0].a.isValid()) {
            hdr.us[0].b.setValid();
            hdr.us[0].b.kind = 0xBB;
            hdr.us[0].b.y = 0x1111;
        }
        if (hdr.cnt.n == 2) {
            hdr.us.push_front(1);
        }
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
