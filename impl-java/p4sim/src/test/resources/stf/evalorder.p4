#include <core.p4>
#include <v1model.p4>

// Evaluation order: in `target = value`, the target's index is evaluated before the value's side
// effects (here a function that increments its inout argument, the index itself).
header h_t {
    bit<8> i;
    bit<8> j;
}
header e_t {
    bit<8> v;
}

struct headers { h_t h; e_t[4] st; }
struct metadata { }

bit<8> bump(inout bit<8> x) {
    x = x + 1;
    return x + 0x10;
}

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); pkt.extract(hdr.st.next); pkt.extract(hdr.st.next);
                  pkt.extract(hdr.st.next); pkt.extract(hdr.st.next); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        // i = 0: st[0].v = bump(i) = 0x11, and i becomes 1 (not st[1])
        hdr.st[hdr.h.i].v = bump(hdr.h.i);
        // j = 2: a slice target, same rule: st[2].v[3:0] = low nibble of bump(j) = 3, j becomes 3
        hdr.st[hdr.h.j].v[3:0] = bump(hdr.h.j)[3:0];
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); pkt.emit(hdr.st); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
