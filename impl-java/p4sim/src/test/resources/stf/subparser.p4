// A parser instantiated inside a parser: it shares the packet, fills an out header, updates an inout
// counter (copied out even when it rejects), and its reject rejects the whole parse.
#include <core.p4>
#include <v1model.p4>

header tag_t {
    bit<8> kind;
    bit<8> more;
}

header res_t {
    bit<8> count;
    bit<8> after;
    bit<8> err;
}

struct headers {
    tag_t tag;
    res_t res;
}

struct metadata {
    bit<8> count;
    bit<8> after;
}

parser Tags(packet_in pkt, out tag_t first, inout bit<8> count) {
    state start {
        pkt.extract(first);
        count = count + 1;
        verify(first.kind != 0xFF, error.NoMatch);
        transition accept;
    }
}

parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
    Tags() tags;
    state start {
        m.count = 10;
        tags.apply(pkt, h.tag, m.count);
        transition after_tags;
    }
    state after_tags {
        m.after = 1;
        transition accept;
    }
}

control VC(inout headers h, inout metadata m) { apply { } }

control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        h.res.setValid();
        h.res.count = m.count;
        h.res.after = m.after;
        h.res.err = sm.parser_error == error.NoError ? 8w0 : 8w1;
    }
}

control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers h, inout metadata m) { apply { } }

control D(packet_out pkt, in headers h) {
    apply {
        pkt.emit(h);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
