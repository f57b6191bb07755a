// A small L2 switch for the P4Runtime tests: controller packet headers (packet-out carries the egress
// port, packet-in the ingress port), an exact table, a ternary table (priorities), a counter, a
// register, a digest of a struct (MAC learning), one table with an @id and one with an action selector
// (ecmp: p4runtime-shell writes members, a group and an entry running it). CPU port 64.
#include <core.p4>
#include <v1model.p4>

const bit<9> CPU_PORT = 64;

@controller_header("packet_in")
header packet_in_t {
    bit<9> ingress_port;
    bit<7> pad;
}

@controller_header("packet_out")
header packet_out_t {
    bit<9> egress_port;
    bit<7> pad;
}

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> type;
}

struct learn_t {
    bit<48> src;
    bit<9> port;
}

struct headers {
    packet_in_t packet_in;
    packet_out_t packet_out;
    ethernet_t eth;
}

struct metadata {
    learn_t learn;
}

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        transition select(sm.ingress_port) {
            CPU_PORT: from_cpu;
            default: eth;
        }
    }
    state from_cpu {
        pkt.extract(hdr.packet_out);
        transition eth;
    }
    state eth {
        pkt.extract(hdr.eth);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    counter(16, CounterType.packets_and_bytes) port_in;
    register<bit<32>>(8) last_type;

    action set_port(bit<9> port) { sm.egress_spec = port; }
    action to_cpu() { sm.egress_spec = CPU_PORT; }
    action drop() { mark_to_drop(sm); }
    action learn() {
        meta.learn.src = hdr.eth.src;
        meta.learn.port = sm.ingress_port;
        digest(1, meta.learn);
    }

    table fwd {
        key = { hdr.eth.dst: exact; }
        actions = { set_port; to_cpu; drop; }
        default_action = drop();
        size = 64;
    }

    @id(7)
    table acl {
        key = { hdr.eth.type: ternary; hdr.eth.src: lpm; }
        actions = { set_port; drop; NoAction; }
        default_action = NoAction();
    }

    action_selector(HashAlgorithm.crc16, 32w16, 32w14) ecmp_sel;

    table ecmp {
        key = { hdr.eth.type: exact; hdr.eth.src: selector; }
        actions = { set_port; NoAction; }
        implementation = ecmp_sel;
        default_action = NoAction();
    }

    table learned {
        key = { hdr.eth.src: exact; }
        actions = { learn; NoAction; }
        default_action = learn();
    }

    apply {
        if (hdr.packet_out.isValid()) {
            sm.egress_spec = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
        } else {
            port_in.count((bit<32>) sm.ingress_port);
            last_type.write(0, (bit<32>) hdr.eth.type);
            learned.apply();
            fwd.apply();
            acl.apply();
            ecmp.apply();
        }
    }
}

control MyEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        if (sm.egress_port == CPU_PORT) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = sm.ingress_port;
        }
    }
}

control CC(inout headers hdr, inout metadata meta) { apply { } }

control D(packet_out pkt, in headers hdr) {
    apply {
        pkt.emit(hdr.packet_in);
        pkt.emit(hdr.eth);
    }
}

V1Switch(P(), VC(), MyIngress(), MyEgress(), CC(), D()) main;
