// header_union: extracting a member, setValid on a member and assigning a valid header to a member
// make the other members invalid (bmv2's rule); assigning an invalid header leaves them alone;
// isValid on the union; emit of a struct holding a union emits its valid member.
#include <core.p4>
#include <v1model.p4>

header tag_t {
    bit<8> which;
}

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

header res_t {
    bit<8> valid_union;
    bit<8> valid_a;
    bit<8> valid_b;
}

struct headers {
    tag_t tag;
    ab_t  u;
    res_t r;
}

struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.tag);
        transition select(hdr.tag.which) {
            1: parse_a;
            5: parse_a;
            2: parse_b;
            6: parse_a_then_b;
            default: accept;
        }
    }
    state parse_a {
        pkt.extract(hdr.u.a);
        transition accept;
    }
    state parse_b {
        pkt.extract(hdr.u.b);
        transition accept;
    }
    state parse_a_then_b {
        pkt.extract(hdr.u.a);
        pkt.extract(hdr.u.b);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.tag.which == 1) {
            b_t nb;
            nb.setValid();
            nb.kind = 0xB1;
            nb.y = (bit<16>) hdr.u.a.x;
            hdr.u.b = nb;
        } else if (hdr.tag.which == 2) {
            bit<8> low = hdr.u.b.y[7:0];
            hdr.u.a.setValid();
            hdr.u.a.kind = 0xA2;
            hdr.u.a.x = low;
        } else if (hdr.tag.which == 3) {
            hdr.u.a.setValid();
            hdr.u.a.kind = 0xAA;
            hdr.u.a.x = 0x33;
        } else if (hdr.tag.which == 5) {
            b_t invalid_b;
            hdr.u.b = invalid_b;
        }
        hdr.r.setValid();
        hdr.r.valid_union = hdr.u.isValid() ? 8w1 : 8w0;
        hdr.r.valid_a = hdr.u.a.isValid() ? 8w1 : 8w0;
        hdr.r.valid_b = hdr.u.b.isValid() ? 8w1 : 8w0;
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
