#include <core.p4>
#include <v1model.p4>

// Forms of p4c's testdata (the second corpus sample, docs/p4sim.md) that p4sim once rejected or
// crashed on: an int<N> header stack index (runtime-index-bmv2), a ternary const entry on a
// serializable-enum key written with the enum's underlying type (table-entries-ser-enum-bmv2), and a
// lookahead of a struct whose value is discarded (issue1768-bmv2): only its length check has an effect.
enum bit<16> Kind {
    A = 0x0a00,
    B = 0xab00
}

header h_t {
    bit<8> op;
    int<8> idx;
    Kind   kind;
    bit<8> out;
}

header s_t {
    bit<8> v;
}

struct three_bytes_t {
    bit<(8 * 3)> bits;
}

struct headers {
    h_t    h;
    s_t[3] s;
}

struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.op) {
            1: peek;
            default: stack;
        }
    }
    state peek {
        pkt.lookahead<three_bytes_t>();
        transition accept;
    }
    state stack {
        pkt.extract(hdr.s[0]);
        pkt.extract(hdr.s[1]);
        pkt.extract(hdr.s[2]);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action set_out(bit<8> v) { hdr.h.out = v; }
    table by_kind {
        key = { hdr.h.op : exact; hdr.h.kind : ternary; }
        actions = { set_out; NoAction; }
        const default_action = NoAction();
        const entries = {
            (0, Kind.A &&& 0xffff)               : set_out(1);
            (0, ((bit<16>) Kind.B) &&& 0xff00)   : set_out(2);
        }
    }
    apply {
        sm.egress_spec = 0;
        if (hdr.h.op == 1) {
            hdr.h.out = sm.parser_error == error.NoError ? 8w0x11 : 8w0xee;
        } else {
            hdr.s[hdr.h.idx].v = 0x77;
            by_kind.apply();
        }
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
