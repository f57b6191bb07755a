// v1model externs: hash (crc16, crc32, csum16, xor16, identity; base + h mod max), register
// (both read forms, 64- and 128-bit cells, out-of-range index), counter, random, checksums.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<32> idx;
    bit<64> val;
}

header r_t {
    bit<16>  crc16;
    bit<32>  crc32;
    bit<16>  csum;
    bit<16>  x16;
    bit<32>  ident;
    bit<16>  hmod;
    bit<64>  regval;
    bit<64>  regval2;
    bit<128> wide;
    bit<8>   rnd;
    bit<16>  ck;
    bit<8>   ckerr;
}

struct headers {
    h_t h;
    r_t r;
}

struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.op) {
            3: parse_r;
            default: accept;
        }
    }
    state parse_r {
        pkt.extract(hdr.r);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) {
    apply {
        verify_checksum(hdr.r.isValid(), { hdr.h.val }, hdr.r.ck, HashAlgorithm.csum16);
    }
}

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    register<bit<64>>(8) r64;
    register<bit<128>>(4) r128;
    counter(8, CounterType.packets_and_bytes) c;

    apply {
        sm.egress_spec = 1;
        c.count(hdr.h.idx);
        if (hdr.h.op == 3) {
            hdr.r.ckerr = (bit<8>) sm.checksum_error;
            return;
        }
        hdr.r.setValid();
        hash(hdr.r.crc16, HashAlgorithm.crc16, 16w0, { hdr.h.val }, 32w65536);
        hash(hdr.r.crc32, HashAlgorithm.crc32, 32w0, { hdr.h.val }, 64w4294967296);
        hash(hdr.r.csum, HashAlgorithm.csum16, 16w0, { hdr.h.val }, 32w65536);
        hash(hdr.r.x16, HashAlgorithm.xor16, 16w0, { hdr.h.val }, 32w65536);
        hash(hdr.r.ident, HashAlgorithm.identity, 32w0, { hdr.h.idx }, 64w4294967296);
        hash(hdr.r.hmod, HashAlgorithm.crc16, 16w100, { hdr.h.val }, 32w7);
        if (hdr.h.op == 1) {
            r64.write(hdr.h.idx, hdr.h.val);
            r128.write(0, hdr.h.val ++ ~hdr.h.val);
        }
        hdr.r.regval = r64.read(hdr.h.idx);
        r64.read(hdr.r.regval2, hdr.h.idx + 1);
        r128.read(hdr.r.wide, 0);
        random(hdr.r.rnd, 8w42, 8w42);
        hdr.r.ck = 0;
        hdr.r.ckerr = 0;
    }
}

control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }

control CC(inout headers hdr, inout metadata m) {
    apply {
        update_checksum(hdr.r.isValid() && hdr.h.op != 3, { hdr.h.val }, hdr.r.ck, HashAlgorithm.csum16);
    }
}

control D(packet_out pkt, in headers hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.r);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
