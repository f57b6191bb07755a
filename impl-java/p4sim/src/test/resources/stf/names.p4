// @name: control-plane names follow it as in p4c (HierarchicalNames): a relative name replaces the
// local name inside its control (I.fwd), a name with a leading '.' is global (global_t). Tables,
// actions, action parameters, key fields and registers, a value set (.marks) and a top-level register
// (total: no prefix at top level); the source names stay usable in the program.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> c;
}

struct headers {
    h_t h;
}

struct metadata {
    bit<8> marked;
}

@name("total") register<bit<8>>(2) all_packets;

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    @name(".marks") value_set<bit<8>>(2) vs;

    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.c) {
            vs: marked;
            default: accept;
        }
    }
    state marked {
        m.marked = 1;
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    @name("hits") register<bit<8>>(4) r;
    @name(".seen") register<bit<8>>(4) r2;

    @name("set_port") action a(@name("port") bit<9> p) {
        sm.egress_spec = p;
        r.write(0, 8w1);
    }
    @name(".drop_it") action d() {
        mark_to_drop(sm);
    }
    @name(".mark") action mk(bit<8> v) {
        hdr.h.c = v;
        r2.write(1, v);
    }
    @name("fwd")
    table t {
        key = { hdr.h.a : exact @name("dst"); }
        actions = { a; d; }
        default_action = d();
    }
    @name(".global_t")
    table t2 {
        key = { hdr.h.b : exact; }
        actions = { mk; NoAction; }
        default_action = NoAction();
    }
    apply {
        t.apply();
        t2.apply();
        if (m.marked == 1) {
            hdr.h.c = 0x55;
        }
        bit<8> n;
        all_packets.read(n, 0);
        all_packets.write(0, n + 1);
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
