/*
 * pegasus.p4: the Pegasus extension of the innet header, Pegasus's constants
 * and the metadata its ingress steps share (docs/pegasus.md "Wire format").
 * The Ethernet, IPv4, UDP and innet header types come from headers.p4.
 */
#ifndef INNET_PEGASUS_HEADERS_P4
#define INNET_PEGASUS_HEADERS_P4

/* wire-format.md §1: Pegasus's UDP port */
const bit<16> UDP_PORT_PEGASUS = 5010;

/* The extension follows the 32-byte innet header (extlen = 8). */
const bit<16> PEG_EXT_BYTES = 8;
header pegasus_ext_h {
    server_bitmap_t fwd;     /* requests: the detector forwards the write to these servers (§6.4);
                                virtual writes: the replicas to copy to (§6.3) */
    load_t          load;    /* replies: the server's load (§4.4 reverse telemetry) */
    bit<8>          server;  /* replies: replying server's index + 1 (0: no server vouches, §6.4 gap);
                                requests: the chosen destination's index + 1 (0: home, unchanged) */
    bit<8>          pflags;  /* PEG_FLAG_* */
}
const bit<8> PEG_FLAG_DETECTOR = 0x01;   /* the receiver is the detector node of §6.4 */
/* ADD_KEY: ver_completed is the packet's seq (a chain's tail, §7: the key's newest version, read from
 * home), not ver_next - 1 */
const bit<8> PEG_FLAG_COMPLETED_GIVEN = 0x02;
/* READ from the controller (issue 16's removal rewrite reads every server's copy) and the server's answer
 * to it: the answer passes to the controller without Algorithm 2 (P-22) */
const bit<8> PEG_FLAG_CONTROLLER_READ = 0x04;

/* Ops on UDP 5010 (docs/pegasus.md). Replies set bit 7. */
const bit<8> PEG_READ = 0x01;
const bit<8> PEG_WRITE = 0x02;
const bit<8> PEG_DELETE = 0x03;
const bit<8> PEG_VIRTUAL_WRITE = 0x04;   /* controller -> home server (§6.3) */
const bit<8> PEG_REPLICATE = 0x05;       /* server -> server: a write's value and version */
const bit<8> PEG_READ_REPLY = 0x81;
const bit<8> PEG_WRITE_REPLY = 0x82;
const bit<8> PEG_DELETE_REPLY = 0x83;
const bit<8> PEG_VIRTUAL_WRITE_REPLY = 0x84;
const bit<8> PEG_REPLICATE_REPLY = 0x85;
/* controller <-> switch (packet-out on the CPU port, answered to it) */
const bit<8> PEG_ADD_KEY = 0x30;         /* activate a key whose rkeys entry is installed */
const bit<8> PEG_MARK_REMOVE = 0x31;     /* mark a key for removal (§6.3) */
const bit<8> PEG_ADD_KEY_REPLY = 0xB0;
const bit<8> PEG_MARK_REMOVE_REPLY = 0xB1;
/* switch -> controller (packet-in by clone to the CPU port) */
const bit<8> PEG_HOT_KEY = 0x32;         /* a sampled request of an unreplicated key reached the threshold */
const bit<8> PEG_KEY_REMOVED = 0x33;     /* a marked key left the directory; delete its rkeys entry */

/* Directory states of a slot (key_state register). */
const bit<8> KEY_INACTIVE = 0;           /* entry installed or left over: behaves as unreplicated */
const bit<8> KEY_ACTIVE = 1;             /* replicated (in rkeys) */
const bit<8> KEY_MARKED = 2;             /* in rkeys, marked for removal: writes go home (§6.3) */

/* Every Pegasus drop sets drop_reason = DROP_PEGASUS (defines.p4 leaves 7
 * free) and counts the detail here, in pegasus_drop_count. */
const bit<8> DROP_PEGASUS = 7;
const bit<8> PEG_DROP_UNVOUCHED = 1;     /* a reply no server vouches for, above ver_completed */
const bit<8> PEG_DROP_PAUSED = 2;        /* a write to a key whose writes are paused (§6.4 transitions) */
const bit<8> PEG_DROP_BAD_CONTROL = 3;   /* a control op not from the CPU port, or for no slot */
const bit<8> PEG_DROP_CLOSED = 4;        /* a client request before the controller opened the switch */

/* Clone of a request (hot-key report) or of a reply (removal report). */
const bit<32> PEG_CPU_CLONE_SESSION = 100;

struct pegasus_headers_t {
    ethernet_h    ethernet;
    ipv4_h        ipv4;
    udp_h         udp;
    innet_h       innet;
    pegasus_ext_h peg;
}

struct pegasus_metadata_t {
    bit<8>       drop_reason;     /* DROP_* (ingress_forwarding.p4 counts it) */
    bit<8>       peg_drop;        /* PEG_DROP_* when drop_reason == DROP_PEGASUS */
    bool         is_pegasus;      /* innet header + extension on UDP 5010 */
    bool         is_request;      /* client READ / WRITE / DELETE to 5010 */
    bool         is_write;
    bool         is_reply;        /* a server's reply from 5010 */
    bool         is_control;      /* controller packet-out */
    bool         dir_hit;         /* rkeys has the key */
    dir_idx_t    dir_idx;
    bit<8>       key_state;       /* KEY_* of the slot (INACTIVE on a miss) */
    bool         route_to_server; /* dest_server was chosen: rewrite the addresses */
    server_idx_t dest_server;
    ipv4_addr_t  rack_peer;       /* the server end of a packet: dst of a request, src of a reply */
    bool         rack_local;      /* rack_servers has rack_peer (only looked up when rack_gate is on) */
    @field_list(1) bit<8> report_op; /* PEG_HOT_KEY / PEG_KEY_REMOVED on the clone */
}

#endif /* INNET_PEGASUS_HEADERS_P4 */
