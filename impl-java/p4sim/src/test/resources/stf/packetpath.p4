// v1model packet paths: unicast, drop, multicast with replication ids, I2E and E2E clones,
// resubmit and recirculate with preserved field lists, CPU port, digest, truncate. eth.type selects the case.
#include <core.p4>
#include <v1model.p4>

header eth_t {
    bit<48> dst;
    bit<48> src;
    bit<16> type;
}

header info_t {
    bit<8>  itype;
    bit<16> rid;
    bit<8>  port;
    bit<8>  passes;
    bit<8>  flag;
}

struct headers {
    eth_t  eth;
    info_t info;
}

struct metadata {
    @field_list(1)
    bit<8> passes;
    bit<8> notpreserved;
}

parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(h.eth);
        transition accept;
    }
}

control VC(inout headers h, inout metadata m) { apply { } }

control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (h.eth.type == 2) {
            mark_to_drop(sm);
        } else if (h.eth.type == 3) {
            sm.mcast_grp = 5;
        } else if (h.eth.type == 4) {
            m.passes = 9;
            m.notpreserved = 9;
            clone_preserving_field_list(CloneType.I2E, 7, 1);
        } else if (h.eth.type == 5) {
            if (sm.instance_type == 0) {
                m.passes = 1;
                m.notpreserved = 1;
                resubmit_preserving_field_list(1);
            } else {
                sm.egress_spec = 3;
            }
        } else if (h.eth.type == 7) {
            sm.egress_spec = 255;
        } else if (h.eth.type == 9) {
            digest(1, { h.eth.src, h.eth.type });
        } else if (h.eth.type == 10) {
            resubmit_preserving_field_list(1);
        } else if (h.eth.type == 11) {
            truncate(16);
        } else if (h.eth.type == 12) {
            mark_to_drop(sm);
            sm.mcast_grp = 5; // multicast after a drop: egress_spec stays 511 through ingress
        }
        if (sm.instance_type == 4) {
            sm.egress_spec = 5; // a recirculated pass sees RECIRC in ingress
        }
    }
}

control E(inout headers h, inout metadata m, inout standard_metadata_t sm) {
    apply {
        // egress sees instance_type 0 on every unicast pass (bmv2), so count the passes to stop
        if (h.eth.type == 6 && m.passes == 0) {
            m.passes = m.passes + 1;
            recirculate_preserving_field_list(1);
        }
        if (h.eth.type == 8 && sm.instance_type == 0) {
            m.passes = 8;
            clone_preserving_field_list(CloneType.E2E, 7, 1);
        }
        h.info.setValid();
        h.info.itype = (bit<8>) sm.instance_type;
        h.info.rid = sm.egress_rid;
        h.info.port = (bit<8>) sm.egress_port;
        h.info.passes = m.passes;
        h.info.flag = m.notpreserved;
    }
}

control CC(inout headers h, inout metadata m) { apply { } }

control D(packet_out pkt, in headers h) {
    apply {
        pkt.emit(h.eth);
        pkt.emit(h.info);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
