#include <core.p4>
#include <v1model.p4>

// bmv2 builds a hash/checksum input from the fields of valid headers only: an invalid header's fields
// are left out (calculations.cpp, BufBuilder). r1 hashes {o.f, h.a}, r2 hashes {h.a}; r3 hashes
// {o.f, h.a} with crc32, whose initial value makes the two leading zero bytes of an invalid o.f
// change the result (crc16/ARC, csum16 and xor16 cannot tell them apart).
header h_t {
    bit<8>  op;
    bit<16> a;
    bit<16> r1;
    bit<16> r2;
    bit<32> r3;
}
header o_t {
    bit<16> f;
}

struct headers { h_t h; o_t o; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.op) {
            1: with_o;
            default: accept;
        }
    }
    state with_o { pkt.extract(hdr.o); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hash(hdr.h.r1, HashAlgorithm.crc16, 16w0, { hdr.o.f, hdr.h.a }, 32w0);
        hash(hdr.h.r2, HashAlgorithm.crc16, 16w0, { hdr.h.a }, 32w0);
        hash(hdr.h.r3, HashAlgorithm.crc32, 32w0, { hdr.o.f, hdr.h.a }, 64w0);
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); pkt.emit(hdr.o); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
