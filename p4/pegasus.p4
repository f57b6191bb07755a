/*
 * pegasus.p4: the in-network coherence directory of Pegasus (Li et al.,
 * OSDI'20, §6 and §8) for one rack, on v1model.
 *
 * The switch keeps metadata only: ver_next, the rkeys lookup table of
 * replicated keys, and per key rset (bitmap, size and server list),
 * ver_completed and the removal mark. It stamps every WRITE with ver_next
 * (Algorithm 1), forwards reads of replicated keys to a member of rset chosen
 * by server-reported load, forwards writes of replicated keys to a detector
 * node chosen by the request id (§6.4) that executes and forwards them to the
 * replicas the switch lists, and runs Algorithm 2 on every reply. Hot keys
 * are found by a Count-Min Sketch over requests for unreplicated keys and
 * reported to the controller by cloning the request to the CPU port.
 *
 * Control-plane interface and procedures: docs/pegasus.md. Spec:
 * specs/pegasus/Pegasus.tla (action names in the comments below).
 *
 * Structure of MyIngress.apply, in order:
 *   1 frame validation                            (include/ingress_forwarding.p4)
 *   2 classification; the rack gate (§7: only this rack's traffic)
 *   3 controller packet-out: ADD_KEY, MARK_REMOVE (AddKey, MarkRemove)
 *   4 rkeys lookup and slot state
 *   5 requests: version stamping, routing          (Algorithm 1: IssueWrite/IssueRead)
 *   6 replies: Algorithm 2, removal, unvouched     (SwitchWriteReply, SwitchReadReply,
 *                                                   SwitchDropUnvouched)
 *   7 statistics engine: counters, Count-Min Sketch, hot-key clone
 *   8 address rewrite, then IPv4 forwarding
 */
#include <core.p4>
#include <v1model.p4>

#include "include/defines.p4"
#include "include/sizes.p4"
#include "include/headers.p4"
#include "include/pegasus_sizes.p4"
#include "include/pegasus_headers.p4"
#include "include/pegasus_parser.p4"

control MyIngress(inout pegasus_headers_t hdr,
                  inout pegasus_metadata_t meta,
                  inout standard_metadata_t standard_metadata) {

#include "include/ingress_forwarding.p4"

    /* ---- directory state (Fig. 3, §8.1) -------------------------------- */
    register<version_t>(1) ver_next;              /* next version to stamp; 0 is read as 1 */
    register<bit<8>>(DIR_SLOTS) key_state;        /* KEY_* */
    register<version_t>(DIR_SLOTS) ver_completed; /* Fig. 3 ver_completed */
    register<version_t>(DIR_SLOTS) mark_ver;      /* ver_next when marked for removal (§6.3) */
    register<server_idx_t>(DIR_SLOTS) home_server;
    register<server_bitmap_t>(DIR_SLOTS) rset_bitmap;
    register<bit<8>>(DIR_SLOTS) rset_size;
    register<server_idx_t>(RSET_LIST_ENTRIES) rset_list;
    register<bit<8>>(DIR_SLOTS) read_cursor;      /* round-robin position in the list */
    register<bit<8>>(DIR_SLOTS) write_paused;     /* 1: writes dropped (§6.4 "pausing WRITES") */
    register<bit<8>>(DIR_SLOTS) rep_factor;       /* servers per write (§6.5); 0 means 1 */
    /* ---- servers ------------------------------------------------------- */
    register<bit<8>>(1) server_count;             /* n: servers 0..n-1 (controller-set) */
    register<load_t>(MAX_SERVERS) server_load;    /* last load each server reported (§4.4) */
    /* ---- statistics engine (§8.1) -------------------------------------- */
    register<peg_count_t>(DIR_SLOTS) read_count;
    register<peg_count_t>(DIR_SLOTS) write_count;
    register<peg_count_t>(PEG_CMS_WIDTH) peg_cms_0;
    register<peg_count_t>(PEG_CMS_WIDTH) peg_cms_1;
    register<peg_count_t>(PEG_CMS_WIDTH) peg_cms_2;
    register<peg_count_t>(PEG_CMS_WIDTH) peg_cms_3;
    register<peg_count_t>(1) peg_hot_threshold;   /* 0: PEG_DEFAULT_HOT_THRESHOLD */
    register<bit<8>>(1) peg_sample_mask;          /* counted iff (random byte & mask) == 0 */
    register<bit<32>>(PEG_DROP_REASON_COUNT) pegasus_drop_count;
    /* 1 once the controller has recovered the switch (ver_next above every
     * version the servers hold, replicated keys collapsed to their homes):
     * a fresh switch has 0 and drops client requests (docs/pegasus.md,
     * "Switch crash and recovery"). */
    register<bit<8>>(1) switch_open;
    /* §7, several racks: 1 once the controller has listed this rack's servers
     * in rack_servers. Then only requests to them and replies from them are
     * Pegasus's; everything else (a server's write passed down the chain to
     * the next rack, another rack's reply on its way to a client) is relayed
     * by plain IPv4 forwarding: no stamping, no Algorithm 2, no counting. 0
     * (a one-rack deployment): every Pegasus packet is this rack's. */
    register<bit<8>>(1) rack_gate;

    action drop_pegasus(bit<8> reason) {
        meta.drop_reason = DROP_PEGASUS;
        meta.peg_drop = reason;
    }

    /* ---- 2 classification ---------------------------------------------- */
    action classify_pegasus() {
        bool to_port = hdr.udp.dst_port == UDP_PORT_PEGASUS;
        bit<8> op = hdr.innet.op;
        meta.is_write = to_port && (op == PEG_WRITE || op == PEG_DELETE);
        meta.is_request = to_port && (op == PEG_READ || op == PEG_WRITE || op == PEG_DELETE);
        meta.is_control = to_port && (op == PEG_ADD_KEY || op == PEG_MARK_REMOVE);
        /* a reply comes from the Pegasus port; it may also go to it: a replica
         * answers a detector's (or home's) REPLICATE, sent from port to port,
         * and Algorithm 2 must see that answer (found by the spec replay,
         * docs/conformance.md "Pegasus": before, rset never grew past one) */
        meta.is_reply = hdr.udp.src_port == UDP_PORT_PEGASUS
            && (op == PEG_READ_REPLY || op == PEG_WRITE_REPLY || op == PEG_DELETE_REPLY
                || op == PEG_VIRTUAL_WRITE_REPLY || op == PEG_REPLICATE_REPLY);
    }

    /* ---- 2 the rack gate (§7) ------------------------------------------ */
    action rack_member() {
        meta.rack_local = true;
    }

    action rack_outsider() {
        meta.rack_local = false;
    }

    table rack_servers {
        key = {
            meta.rack_peer: exact;
        }
        actions = {
            rack_member;
            rack_outsider;
        }
        default_action = rack_outsider();
        size = RACK_SERVERS_TABLE_SIZE;
    }

    /* ---- 4 replicated keys lookup table (§8.1) ------------------------- */
    action set_dir_index(dir_idx_t index) {
        meta.dir_hit = true;
        meta.dir_idx = index;
    }

    action mark_dir_miss() {
        meta.dir_hit = false;
        meta.dir_idx = 0;
    }

    table rkeys {
        key = {
            hdr.innet.key: exact;
        }
        actions = {
            set_dir_index;
            mark_dir_miss;
        }
        default_action = mark_dir_miss();
        size = RKEYS_TABLE_SIZE;
    }

    /* ---- 8 address rewrite table (§8.1) -------------------------------- */
    action set_server_address(ipv4_addr_t ip, mac_addr_t mac) {
        hdr.ipv4.dst_addr = ip;
        hdr.ethernet.dst_addr = mac;
    }

    action no_server_address() {
        /* an index the controller did not install: the request keeps its
         * original destination (its home) */
    }

    table server_address {
        key = {
            meta.dest_server: exact;
        }
        actions = {
            set_server_address;
            no_server_address;
        }
        default_action = no_server_address();
        size = SERVER_ADDRESS_TABLE_SIZE;
    }

    /* Reset a slot's replica set to the single server s (Alg. 2 line 4,
     * and the controller's add, §8.1). */
    action rset_reset(bit<32> index, server_idx_t s) {
        rset_bitmap.write(index, ((server_bitmap_t) 1) << s);
        rset_size.write(index, 1);
        rset_list.write(index * MAX_SERVERS, s);
        read_cursor.write(index, 0);
    }

    /* The turned-around control packet goes back to the controller. */
    action answer_controller(bit<8> status, version_t v) {
        hdr.innet.op = hdr.innet.op | 0x80;
        hdr.innet.status = status;
        hdr.innet.seq = v;
        ipv4_addr_t ip = hdr.ipv4.src_addr;
        hdr.ipv4.src_addr = hdr.ipv4.dst_addr;
        hdr.ipv4.dst_addr = ip;
        mac_addr_t mac = hdr.ethernet.src_addr;
        hdr.ethernet.src_addr = hdr.ethernet.dst_addr;
        hdr.ethernet.dst_addr = mac;
        bit<16> port = hdr.udp.src_port;
        hdr.udp.src_port = hdr.udp.dst_port;
        hdr.udp.dst_port = port;
    }

    apply {
        /* ---- 1 frame validation ------------------------------------------ */
        validate_frame();

        if (meta.drop_reason == DROP_NONE && meta.is_pegasus) {
            /* ---- 2 classification ---------------------------------------- */
            classify_pegasus();
            bit<8> gate;
            rack_gate.read(gate, 0);
            if (gate == 1 && (meta.is_request || meta.is_reply)) {
                meta.rack_peer = meta.is_reply ? hdr.ipv4.src_addr : hdr.ipv4.dst_addr;
                rack_servers.apply();
                if (!meta.rack_local) {
                    /* another rack's traffic passing through: relayed as it is */
                    meta.is_request = false;
                    meta.is_write = false;
                    meta.is_reply = false;
                }
            }

            /* ---- 4 lookup (the control ops need the slot too) ------------ */
            if (meta.is_request || meta.is_reply || meta.is_control) {
                rkeys.apply();
            }
            bit<32> index = (bit<32>) meta.dir_idx;
            if (meta.dir_hit) {
                key_state.read(meta.key_state, index);
            }
            version_t next;
            ver_next.read(next, 0);
            if (next == 0) {
                next = 1;   /* Init: ver_next = 1 */
            }
            bit<8> n;
            server_count.read(n, 0);
            bit<8> open;
            switch_open.read(open, 0);

            if (meta.is_control) {
                /* ---- 3 controller packet-out ----------------------------- */
                if (standard_metadata.ingress_port != CPU_PORT || !meta.dir_hit) {
                    drop_pegasus(PEG_DROP_BAD_CONTROL);
                } else if (hdr.innet.op == PEG_ADD_KEY) {
                    /* AddKey: rset = {home}, ver_completed = ver_next - 1, then
                     * the key is replicated; atomically, and writes resume.
                     * A chain's tail (§7) is told the key's newest version
                     * instead: its ver_next also counts the versions of the
                     * keys it heads, which bound nothing of another head's,
                     * and a write stamped before the pause may still come
                     * (P-20). */
                    server_idx_t home = hdr.peg.server - 1;
                    version_t completed = next - 1;
                    if ((hdr.peg.pflags & PEG_FLAG_COMPLETED_GIVEN) != 0) {
                        completed = hdr.innet.seq;
                    }
                    home_server.write(index, home);
                    rset_reset(index, home);
                    ver_completed.write(index, completed);
                    mark_ver.write(index, 0);
                    key_state.write(index, KEY_ACTIVE);
                    write_paused.write(index, 0);
                    answer_controller(STATUS_OK, completed);
                    standard_metadata.egress_spec = CPU_PORT;
                } else if (meta.key_state == KEY_ACTIVE) {
                    /* MarkRemove: mark = ver_next; writes go home from now on. */
                    mark_ver.write(index, next);
                    key_state.write(index, KEY_MARKED);
                    write_paused.write(index, 0);
                    answer_controller(STATUS_OK, next);
                    standard_metadata.egress_spec = CPU_PORT;
                } else {
                    answer_controller(STATUS_NOT_FOUND, 0);
                    standard_metadata.egress_spec = CPU_PORT;
                }
            } else if (meta.is_request && standard_metadata.ingress_port != CPU_PORT && open != 1) {
                drop_pegasus(PEG_DROP_CLOSED);
            } else if (meta.is_request) {
                bool directory = meta.dir_hit && meta.key_state != KEY_INACTIVE;
                if (meta.is_write) {
                    /* ---- 5 Algorithm 1, WRITE ------------------------------ */
                    bit<8> paused = 0;
                    if (meta.dir_hit) {
                        write_paused.read(paused, index);
                    }
                    /* the controller's own write (from the CPU port) passes the
                     * pause: the rewrite that ends a stuck removal is stamped
                     * while the clients' writes are paused and drained (P-21) */
                    if (paused == 1 && standard_metadata.ingress_port != CPU_PORT) {
                        drop_pegasus(PEG_DROP_PAUSED);
                    } else {
                        /* §7: a write an upstream (head) switch stamped keeps its
                         * version; ver_next is raised past it. */
                        version_t v = next;
                        if (hdr.innet.seq != 0) {
                            v = hdr.innet.seq;
                        }
                        if (v >= next) {
                            ver_next.write(0, v + 1);
                        }
                        hdr.innet.seq = v;
                        hdr.peg.pflags = PEG_FLAG_DETECTOR;
                        hdr.peg.fwd = 0;
                        if (meta.dir_hit) {
                            peg_count_t w;
                            write_count.read(w, index);
                            write_count.write(index, w + 1);
                        }
                        if (meta.key_state == KEY_ACTIVE && n != 0) {
                            /* replicated: the detector is chosen by the request
                             * id (§6.4), the other replicas follow it */
                            bit<32> det32;
                            hash(det32, HashAlgorithm.crc32, (bit<32>) 0,
                                 { hdr.ipv4.src_addr, hdr.innet.req_id }, (bit<32>) n);
                            server_idx_t det = (server_idx_t) det32;
                            bit<8> r;
                            rep_factor.read(r, index);
                            if (r == 0) { r = 1; }
                            if (r > n) { r = n; }
                            bit<64> others = ((((bit<64>) 1) << (r - 1)) - 1) << (det + 1);
                            bit<64> all = (((bit<64>) 1) << n) - 1;
                            hdr.peg.fwd = (server_bitmap_t) ((others | (others >> n)) & all);
                            meta.dest_server = det;
                            meta.route_to_server = true;
                        }
                        /* unreplicated or marked: home (the original destination)
                         * is the detector */
                    }
                } else if (directory && standard_metadata.ingress_port != CPU_PORT) {
                    /* ---- 5 Algorithm 1, READ: least-loaded of the next two
                     * members in round-robin order (§4.4, §6.5); the
                     * controller's own reads (CPU port) go to the server they
                     * name: it reads every server's copy (P-21) ------------- */
                    bit<8> size;
                    bit<8> c1;
                    rset_size.read(size, index);
                    read_cursor.read(c1, index);
                    if (c1 >= size) { c1 = 0; }
                    bit<8> c2 = c1 + 1;
                    if (c2 >= size) { c2 = 0; }
                    server_idx_t s1;
                    server_idx_t s2;
                    rset_list.read(s1, index * MAX_SERVERS + (bit<32>) c1);
                    rset_list.read(s2, index * MAX_SERVERS + (bit<32>) c2);
                    load_t l1;
                    load_t l2;
                    server_load.read(l1, (bit<32>) s1);
                    server_load.read(l2, (bit<32>) s2);
                    meta.dest_server = (l2 < l1) ? s2 : s1;
                    meta.route_to_server = true;
                    read_cursor.write(index, c2);
                    hdr.peg.pflags = 0;
                    peg_count_t rc;
                    read_count.read(rc, index);
                    read_count.write(index, rc + 1);
                }
                if (meta.route_to_server) {
                    hdr.peg.server = meta.dest_server + 1;
                }

                /* ---- 7 statistics: unreplicated keys in the sketch -------- */
                if (!meta.dir_hit && meta.drop_reason == DROP_NONE) {
                    bit<8> mask;
                    peg_sample_mask.read(mask, 0);
                    bit<8> draw = 0;
                    if (mask != 0) {
                        random(draw, (bit<8>) 0, (bit<8>) 255);
                    }
                    if ((draw & mask) == 0) {
                        bit<32> i0;
                        bit<32> i1;
                        bit<32> i2;
                        bit<32> i3;
                        hash(i0, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, 8w0x50 }, PEG_CMS_WIDTH);
                        hash(i1, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, 8w0x51 }, PEG_CMS_WIDTH);
                        hash(i2, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, 8w0x52 }, PEG_CMS_WIDTH);
                        hash(i3, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, 8w0x53 }, PEG_CMS_WIDTH);
                        peg_count_t c0;
                        peg_count_t cc1;
                        peg_count_t cc2;
                        peg_count_t c3;
                        peg_cms_0.read(c0, i0);
                        peg_cms_1.read(cc1, i1);
                        peg_cms_2.read(cc2, i2);
                        peg_cms_3.read(c3, i3);
                        c0 = c0 + 1;
                        cc1 = cc1 + 1;
                        cc2 = cc2 + 1;
                        c3 = c3 + 1;
                        peg_cms_0.write(i0, c0);
                        peg_cms_1.write(i1, cc1);
                        peg_cms_2.write(i2, cc2);
                        peg_cms_3.write(i3, c3);
                        peg_count_t m = c0;
                        if (cc1 < m) { m = cc1; }
                        if (cc2 < m) { m = cc2; }
                        if (c3 < m) { m = c3; }
                        peg_count_t threshold;
                        peg_hot_threshold.read(threshold, 0);
                        if (threshold == 0) { threshold = PEG_DEFAULT_HOT_THRESHOLD; }
                        /* the estimate grows by at most one per counted request:
                         * "== threshold" reports each key once per reset */
                        if (m == threshold) {
                            meta.report_op = PEG_HOT_KEY;
                            clone_preserving_field_list(CloneType.I2E, PEG_CPU_CLONE_SESSION, 1);
                        }
                    }
                }
            } else if (meta.is_reply) {
                /* every reply reports its server's load (§4.4) */
                if (hdr.peg.server != 0 && (bit<32>) hdr.peg.server <= MAX_SERVERS) {
                    server_load.write((bit<32>) (hdr.peg.server - 1), hdr.peg.load);
                }
                /* the answer to the controller's own read of a server's copy (P-22)
                 * is no client's: the directory neither learns from it nor drops it,
                 * as Pegasus.tla's RemovalRewrite reads the stores without a message
                 * the switch sees */
                bool controller_read = (hdr.peg.pflags & PEG_FLAG_CONTROLLER_READ) != 0
                    && hdr.innet.op == PEG_READ_REPLY;
                if (meta.dir_hit && meta.key_state != KEY_INACTIVE && !controller_read) {
                    /* ---- 6 Algorithm 2 and the removal rule ----------------- */
                    version_t v = hdr.innet.seq;
                    version_t completed;
                    ver_completed.read(completed, index);
                    bit<8> op = hdr.innet.op;
                    if (hdr.peg.server == 0 || (bit<32>) hdr.peg.server > MAX_SERVERS) {
                        /* SwitchDropUnvouched: no server vouches for a version
                         * the directory does not cover */
                        if (v > completed) {
                            drop_pegasus(PEG_DROP_UNVOUCHED);
                        }
                    } else {
                        server_idx_t s = hdr.peg.server - 1;
                        server_idx_t home;
                        home_server.read(home, index);
                        version_t marked;
                        mark_ver.read(marked, index);
                        if (meta.key_state == KEY_MARKED
                            && (op == PEG_WRITE_REPLY || op == PEG_DELETE_REPLY)
                            && s == home && v >= marked) {
                            /* §6.3: home has a write sent after the mark: the key
                             * leaves the directory; the controller deletes the
                             * rkeys entry on the report */
                            key_state.write(index, KEY_INACTIVE);
                            rset_bitmap.write(index, 0);
                            rset_size.write(index, 0);
                            ver_completed.write(index, 0);
                            mark_ver.write(index, 0);
                            meta.report_op = PEG_KEY_REMOVED;
                            clone_preserving_field_list(CloneType.I2E, PEG_CPU_CLONE_SESSION, 1);
                        } else if (v > completed) {
                            /* Alg. 2 line 2-4: newer: reset to {s} */
                            ver_completed.write(index, v);
                            rset_reset(index, s);
                        } else if (v == completed) {
                            /* Alg. 2 line 5-6: equal: add s */
                            server_bitmap_t bits;
                            rset_bitmap.read(bits, index);
                            server_bitmap_t mine = ((server_bitmap_t) 1) << s;
                            if ((bits & mine) == 0) {
                                bit<8> size;
                                rset_size.read(size, index);
                                rset_list.write(index * MAX_SERVERS + (bit<32>) size, s);
                                rset_size.write(index, size + 1);
                                rset_bitmap.write(index, bits | mine);
                            }
                        }
                    }
                }
            }
        }

        /* ---- 8 address rewrite, then forwarding --------------------------- */
        if (meta.drop_reason == DROP_NONE && meta.route_to_server) {
            server_address.apply();
        }
        if (meta.is_pegasus) {
            /* Stamping (seq, fwd, server, pflags), Algorithm 2's answers and the
             * address rewrite change bytes the UDP checksum covers (the payload and
             * the pseudo-header's addresses). Checksum 0 means "not computed"
             * (wire-format.md §1), which receiving kernels accept; a stale one
             * makes them drop the datagram (found on the live rack). */
            hdr.udp.checksum = 0;
        }
        if (meta.drop_reason == DROP_NONE && !(meta.is_control && meta.is_pegasus)) {
            ipv4_forward.apply();
        }

        if (meta.drop_reason == DROP_PEGASUS) {
            bit<32> count;
            pegasus_drop_count.read(count, (bit<32>) meta.peg_drop);
            pegasus_drop_count.write((bit<32>) meta.peg_drop, count + 1);
        }
        if (meta.drop_reason != DROP_NONE) {
            drop_with_reason();
        }
    }
}

/*
 * Egress: only the clones are processed. A clone becomes a report to the
 * controller (packet-in on the CPU port): HOT_KEY for a sampled request of
 * an unreplicated key whose estimate reached the threshold (§8.1 statistics
 * engine), KEY_REMOVED for the reply that took a marked key out of the
 * directory (§6.3). The key is what the controller needs; the rest of the
 * message rides along unchanged.
 */
control MyEgress(inout pegasus_headers_t hdr,
                 inout pegasus_metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.instance_type == PKT_INSTANCE_TYPE_INGRESS_CLONE && hdr.innet.isValid()) {
            hdr.innet.op = meta.report_op;
            hdr.ethernet.dst_addr = CONTROLLER_MAC;
            hdr.ipv4.dst_addr = CONTROLLER_IP;
            hdr.udp.dst_port = UDP_PORT_PEGASUS;
            hdr.udp.src_port = UDP_PORT_PEGASUS;
            hdr.udp.checksum = 0;   /* op, addresses and ports changed */
        }
    }
}

V1Switch(PegasusParser(), PegasusVerifyChecksum(), MyIngress(), MyEgress(), PegasusComputeChecksum(),
         PegasusDeparser()) main;
