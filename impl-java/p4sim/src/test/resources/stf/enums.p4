// enum, serializable enum (in a header, a table key, casts, switch labels), typedef, const, bool,
// switch on values with fall-through labels and default, and match on error.
#include <core.p4>
#include <v1model.p4>

typedef bit<8> byte_t;
const byte_t MARK = 0x5A;

enum bit<8> Kind {
    A = 1,
    B = 2,
    C = 0x10
}

enum Color {
    RED,
    GREEN,
    BLUE
}

header h_t {
    Kind   k;
    byte_t green;
    byte_t next_kind;
    byte_t by_table;
    byte_t mark;
    byte_t sw;
}

struct headers {
    h_t h;
}

struct metadata {
    Color c;
    bool  seen;
}

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.k) {
            Kind.A: accept;
            Kind.B: accept;
            Kind.C: accept;
        }
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    action set(byte_t v) { hdr.h.by_table = v; }
    table by_kind {
        key = { hdr.h.k : exact; }
        actions = { set; NoAction; }
        default_action = NoAction();
        const entries = {
            Kind.C : set(0x77);
        }
    }
    apply {
        sm.egress_spec = 1;
        if (sm.parser_error != error.NoError) {
            hdr.h.mark = 0xEE;
            exit;
        }
        if (hdr.h.k == Kind.A) {
            m.c = Color.RED;
        } else if (hdr.h.k == Kind.B) {
            m.c = Color.GREEN;
        } else {
            m.c = Color.BLUE;
        }
        m.seen = m.c != Color.RED;
        hdr.h.green = (m.c == Color.GREEN && m.seen) ? 8w1 : 8w0;
        hdr.h.next_kind = (byte_t) hdr.h.k + 1;
        by_kind.apply();
        hdr.h.mark = MARK;
        switch (hdr.h.k) {
            Kind.A: {
                hdr.h.sw = 1;
            }
            Kind.B:
            Kind.C: {
                hdr.h.sw = 2;
            }
        }
        switch (hdr.h.next_kind) {
            3: {
                hdr.h.sw = hdr.h.sw | 0x10;
            }
            default: {
                hdr.h.sw = hdr.h.sw | 0x20;
            }
        }
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
