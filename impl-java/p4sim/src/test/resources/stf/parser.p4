// Parser semantics: select with masks, ranges and default; header stacks (next, last, push_front,
// pop_front); lookahead, advance, verify; parser errors (PacketTooShort, NoMatch, StackOutOfBounds,
// a user error) reach ingress in standard_metadata.parser_error, as in bmv2.
#include <core.p4>
#include <v1model.p4>

error { BadOpt }

header eth_t {
    bit<48> dst;
    bit<48> src;
    bit<16> type;
}

header tag_t {
    bit<8> kind;
    bit<8> more;
}

header opt_t {
    bit<8> v;
}

header res_t {
    bit<8> err;
    bit<8> look;
    bit<8> validmask;
}

struct headers {
    eth_t    eth;
    tag_t[3] tags;
    opt_t    opt;
    res_t    res;
}

struct metadata {
    bit<8> look;
}

parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(h.eth);
        transition select(h.eth.type) {
            0x8100 &&& 0xFF00: parse_tags;
            0x0800 .. 0x08FF: parse_opt;
            0x9000: skip_two;
            default: accept;
        }
    }
    state parse_tags {
        pkt.extract(h.tags.next);
        transition select(h.tags.last.more) {
            0: after_tags;
            default: parse_tags;
        }
    }
    state after_tags {
        m.look = pkt.lookahead<bit<8>>();
        transition accept;
    }
    state parse_opt {
        verify(pkt.lookahead<bit<8>>() != 0xFF, error.BadOpt);
        pkt.extract(h.opt);
        transition select(h.opt.v) {
            1: accept;
            2 .. 5: accept;
        }
    }
    state skip_two {
        pkt.advance(16);
        pkt.extract(h.opt);
        transition accept;
    }
}

control VC(inout headers h, inout metadata m) { apply { } }

control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (h.eth.dst == 2) {
            h.tags.push_front(1);
            h.tags[0].setValid();
            h.tags[0].kind = 0xEE;
            h.tags[0].more = 1;
        }
        if (h.eth.dst == 3) {
            h.tags.pop_front(1);
        }
        h.res.setValid();
        if (sm.parser_error == error.NoError) {
            h.res.err = 0;
        } else if (sm.parser_error == error.PacketTooShort) {
            h.res.err = 1;
        } else if (sm.parser_error == error.NoMatch) {
            h.res.err = 2;
        } else if (sm.parser_error == error.StackOutOfBounds) {
            h.res.err = 3;
        } else if (sm.parser_error == error.BadOpt) {
            h.res.err = 4;
        } else {
            h.res.err = 0xFF;
        }
        h.res.look = m.look;
        bit<8> vm = 0;
        if (h.tags[0].isValid()) { vm = vm | 1; }
        if (h.tags[1].isValid()) { vm = vm | 2; }
        if (h.tags[2].isValid()) { vm = vm | 4; }
        if (h.opt.isValid()) { vm = vm | 8; }
        h.res.validmask = vm;
    }
}

control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers h, inout metadata m) { apply { } }

control D(packet_out pkt, in headers h) {
    apply {
        pkt.emit(h.eth);
        pkt.emit(h.tags);
        pkt.emit(h.opt);
        pkt.emit(h.res);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
