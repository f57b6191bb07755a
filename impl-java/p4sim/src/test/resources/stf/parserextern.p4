// A sub-parser taking an extern argument (issue 14: "controls and parsers that take extern arguments"):
// Sub writes the top-level register it is given while parsing; ingress reads it back.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
struct headers { h_t h; }
struct metadata { bit<8> m; }
register<bit<8>>(2) seen;
parser Sub(packet_in pkt, out h_t h, register<bit<8>> r) {
    state start { pkt.extract(h); r.write(0, h.a); transition accept; }
}
parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    Sub() sub;
    state start { sub.apply(pkt, hdr.h, seen); transition accept; }
}
control VC(inout headers hdr, inout metadata meta) { apply { } }
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply { sm.egress_spec = 1; seen.read(hdr.h.b, 0); }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
