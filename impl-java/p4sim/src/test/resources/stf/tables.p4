// Tables: exact, ternary (priorities), lpm, range + exact, const entries, const default_action,
// hit/miss, switch on action_run, direct counters; actions with in/out/inout parameters
// (copy-in/copy-out), return and exit.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<8>  k8;
    bit<16> k16;
    bit<32> ip;
    bit<8>  e;
    bit<8>  hm;
    bit<8>  t;
    bit<8>  sw;
    bit<8>  l;
    bit<8>  rg;
    bit<8>  ea;
    bit<8>  sx;
    bit<8>  sy;
    bit<8>  c;
    bit<8>  tc;
    bit<8>  after;
}

struct headers {
    h_t h;
}

struct metadata {
    bit<8> x;
    bit<8> y;
}

parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    direct_counter(CounterType.packets_and_bytes) exact_hits;

    action set_e(bit<8> v) { hdr.h.e = v; }
    action set_t(bit<8> v) { hdr.h.t = v; }
    action set_l(bit<8> v) { hdr.h.l = v; }
    action set_rg(bit<8> v) { hdr.h.rg = v; }
    action early(bit<8> v) {
        hdr.h.ea = v;
        return;
        hdr.h.ea = 0xFF;
    }
    action set_c(bit<8> v) { hdr.h.c = v; }
    action stop() { exit; }
    action set_tc(bit<8> v) { hdr.h.tc = v; }
    action swap(inout bit<8> p, inout bit<8> q) {
        bit<8> tmp = p;
        p = q;
        q = tmp;
    }
    action plus_one(in bit<8> v, out bit<8> res) {
        res = v + 1;
    }

    table exact_t {
        key = { hdr.h.k8: exact; }
        actions = { set_e; NoAction; }
        default_action = NoAction();
        counters = exact_hits;
    }
    table tern_t() {   // the empty parameter list older p4c printed; accepted and ignored
        key = { hdr.h.k16: ternary; }
        actions = { set_t; NoAction; }
        default_action = NoAction();
    }
    table lpm_t {
        key = { hdr.h.ip: lpm; }
        actions = { set_l; }
        default_action = set_l(0xDD);
    }
    table range_t {
        key = {
            hdr.h.k8: range;
            hdr.h.k16: exact;
        }
        actions = { set_rg; early; }
        default_action = set_rg(0x99);
    }
    table const_t {
        key = { hdr.h.op: exact; }
        actions = { set_c; stop; NoAction; }
        const default_action = NoAction();
        const entries = {
            1 : set_c(0x11);
            2 : stop();
        }
    }
    table tern_const {
        key = { hdr.h.k8: ternary; }
        actions = { set_tc; }
        default_action = set_tc(0);
        const entries = {
            0x10 &&& 0xF0 : set_tc(0xA1);
            0x12 : set_tc(0xA2);
            _ : set_tc(0xA3);
        }
    }

    apply {
        sm.egress_spec = 1;
        if (exact_t.apply().hit) {
            hdr.h.hm = 1;
        } else {
            hdr.h.hm = 2;
        }
        switch (tern_t.apply().action_run) {
            set_t: {
                hdr.h.sw = 0x22;
            }
            default: {
                hdr.h.sw = 0x33;
            }
        }
        lpm_t.apply();
        range_t.apply();
        tern_const.apply();
        m.x = hdr.h.k8;
        m.y = 7;
        swap(m.x, m.y);
        plus_one(m.x, m.y);
        hdr.h.sx = m.x;
        hdr.h.sy = m.y;
        const_t.apply();
        hdr.h.after = 0xAF;
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
