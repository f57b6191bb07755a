// varbit: extract with a length in bits (bmv2's checks, in bmv2's order: a length that is not a
// whole number of bytes is ParserInvalidArgument, too few bytes PacketTooShort, more than the
// maximum HeaderTooShort), emit with the extracted length, assignment and equality, and a
// checksum over a field list holding the varbit (its current length counts, as for IPv4 options).
#include <core.p4>
#include <v1model.p4>

header len_t {
    // top bit set: the low 7 bits are a length in bits; otherwise a length in bytes
    bit<8> n;
}

header opt_t {
    bit<8>     kind;
    varbit<32> data;
    bit<8>     trailer;
}

header copy_t {
    varbit<32> data;
}

header res_t {
    bit<8> eq;
    bit<8> eq_empty;
    bit<8> err;
}

header sum_t {
    bit<16> c;
}

struct headers {
    len_t  len;
    opt_t  opt;
    copy_t copy;
    res_t  res;
    sum_t  sum;
}

struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.len);
        bit<32> bits = hdr.len.n[7:7] == 1 ? (bit<32>) hdr.len.n[6:0] : (bit<32>) hdr.len.n * 8;
        pkt.extract(hdr.opt, bits);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.res.setValid();
        if (sm.parser_error == error.HeaderTooShort) {
            hdr.res.err = 1;
        } else if (sm.parser_error == error.ParserInvalidArgument) {
            hdr.res.err = 2;
        } else if (sm.parser_error == error.PacketTooShort) {
            hdr.res.err = 3;
        }
        if (hdr.opt.isValid()) {
            hdr.copy.setValid();
            hdr.copy.data = hdr.opt.data;
            hdr.res.eq = hdr.copy.data == hdr.opt.data ? 8w1 : 8w0;
            copy_t empty;
            hdr.res.eq_empty = hdr.copy.data != empty.data ? 8w0 : 8w1;
            hdr.sum.setValid();
        }
    }
}

control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata m) {
    apply {
        update_checksum(hdr.sum.isValid(), { hdr.opt.kind, hdr.opt.data, hdr.opt.trailer }, hdr.sum.c, HashAlgorithm.csum16);
    }
}

control D(packet_out pkt, in headers hdr) {
    apply {
        pkt.emit(hdr);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
