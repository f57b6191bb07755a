#include <core.p4>
#include <v1model.p4>

// assert/assume that hold, run-time division and modulo, crc16_custom/crc32_custom with bmv2's default
// parameters (equal to crc16/crc32), the random hash algorithm with max 1, identity over more than
// 8 bytes (bmv2 takes the first 8), and the *_with_payload checksums (fields, then the payload).
header h_t {
    bit<8>  op;
    bit<16> a;
    bit<16> csum;
    bit<8>  cerr;
    bit<16> c16;
    bit<16> c16c;
    bit<32> c32;
    bit<32> c32c;
    bit<8>  rnd;
    bit<16> ident;
    bit<8>  x;
    bit<8>  y;
    bit<8>  q;
    bit<8>  r;
}

struct headers { h_t h; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) {
    apply {
        verify_checksum_with_payload(hdr.h.op == 2, { hdr.h.a }, hdr.h.csum, HashAlgorithm.csum16);
    }
}

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        assert(hdr.h.op != 0xFF);
        assume(hdr.h.op != 0xFE);
        sm.egress_spec = 1;
        hdr.h.cerr = (bit<8>) sm.checksum_error;
        hash(hdr.h.c16, HashAlgorithm.crc16, 16w0, { hdr.h.a }, 32w0);
        hash(hdr.h.c16c, HashAlgorithm.crc16_custom, 16w0, { hdr.h.a }, 32w0);
        hash(hdr.h.c32, HashAlgorithm.crc32, 32w0, { hdr.h.a }, 64w0);
        hash(hdr.h.c32c, HashAlgorithm.crc32_custom, 32w0, { hdr.h.a }, 64w0);
        hash(hdr.h.rnd, HashAlgorithm.random, 8w7, { hdr.h.a }, 16w1);
        hash(hdr.h.ident, HashAlgorithm.identity, 16w0, { 64w0x0102030405060708, 16w0xAAAA }, 32w0);
        hdr.h.q = hdr.h.x / hdr.h.y;
        hdr.h.r = hdr.h.x % hdr.h.y;
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }

control CC(inout headers hdr, inout metadata meta) {
    apply {
        update_checksum_with_payload(hdr.h.op == 1, { hdr.h.a }, hdr.h.csum, HashAlgorithm.csum16);
    }
}

control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
