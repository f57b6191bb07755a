/*
 * farreach.p4: FarReach's in-switch write-back cache (Sheng et al., "FarReach:
 * Write-back Caching in Programmable Switches", USENIX ATC 2023) on v1model:
 *   §3.2 non-blocking cache admission: latest/outdated state, conservative
 *        reads, atomic validity;
 *   §3.3 available cache eviction: to-be-evicted flag, switch-assigned
 *        sequence numbers, record embedding;
 *   §3.4 crash-consistent snapshots: the first change to a cached record
 *        during a snapshot reports the original record to the controller.
 *
 * Control-plane interface: docs/p4-programs.md, section farreach.p4.
 * Mapping to Tofino (TNA), and where the paper's hardware constraints went:
 * docs/tna-mapping.md.
 *
 * All cache state is read and written in ingress. v1model has one ingress
 * pipeline that processes packets one at a time, which gives every record
 * the atomicity the paper obtains by steering all requests of a key through
 * the one egress pipeline of its server (§3.2 "Atomic validity control").
 *
 * Structure of MyIngress.apply, in order (each step reads what earlier steps
 * wrote into meta):
 *   1 frame validation and IPv4 forwarding      (include/ingress_forwarding.p4)
 *   2 classification of key-value messages      (include/ingress_cache.p4)
 *   3 cache lookup                              (include/ingress_cache.p4)
 *   4 sequence numbers                          (include/ingress_cache.p4)
 *   5 FarReach record decisions                 (this file)
 *   6 frequency tracking                        (include/ingress_cache.p4)
 *   7 value words in and out of registers       (include/ingress_cache.p4)
 *   8 reply framing, lengths, checksum          (include/ingress_cache.p4)
 *   9 snapshot clone                            (this file; egress below)
 */
#include <core.p4>
#include <v1model.p4>

#include "include/defines.p4"
#include "include/sizes.p4"
#include "include/headers.p4"
#include "include/parser.p4"

control MyIngress(inout headers_t hdr,
                  inout local_metadata_t meta,
                  inout standard_metadata_t standard_metadata) {

#include "include/ingress_forwarding.p4"
#include "include/ingress_cache.p4"

    /* ======================================================================
     * FarReach per-record state (index x = the cache_lookup result).
     * ====================================================================== */

    /* 1 = the switch is being recovered after a crash (§3.4 zero-loss
     * recovery): client requests are dropped (DROP_RECOVERING) until the
     * controller has replayed the preserved records to the servers, so no read
     * can see a server record older than an acknowledged write that only a
     * client still holds. Registers start at 0 after a (re)start, and a
     * restarted switch forwards nothing before the controller installs
     * ipv4_forward entries, so the controller sets this to 1 first. */
    register<bit<1>>(1) recovering;

    /* 1 = the controller finished admitting the record (§3.2 "Atomic validity
     * control", Figure 4). A key with a lookup entry but valid 0 is a miss. */
    register<bit<1>>(CACHE_CAPACITY) record_valid;
    /* 1 = latest, 0 = outdated (§3.2, Figure 3(b)). Admission installs 0. */
    register<bit<1>>(CACHE_CAPACITY) record_latest;
    /* 1 = the cached record is a tombstone (a DEL absorbed by the cache). */
    register<bit<1>>(CACHE_CAPACITY) record_deleted;
    /* 1 = to-be-evicted (§3.3, Figure 5(a)). */
    register<bit<1>>(CACHE_CAPACITY) record_evicting;
    /* sequence number of the cached value (§3.3) */
    register<seq_t>(CACHE_CAPACITY) record_seq;
    /* value length in bytes, <= 128; the value is in value_word_00..15 */
    register<vallen_t>(CACHE_CAPACITY) record_vallen;
    /* FR-11's fill rule, which needs no per-key counter (FarReach.tla's
     * FillBySeen; docs/specs/farreach.md "Filling by what the switch has
     * seen"). Keys share seq_counter slots, and a slot's counter also counts
     * other keys' writes, so it is no bound for one key: with it, a freshly
     * admitted record stayed outdated until its key's next write, i.e. for
     * good in a read-only phase (FarReachSharedSeqSlotTest). Instead:
     *   - record_seen_seq: the highest seq of the key seen pass since its
     *     admission: every write numbered (or relayed) while its lookup entry
     *     exists, and every server reply of the key (FR-18);
     *   - record_fill_floor: the seq of the key's server record after the
     *     entry was installed, which the controller learns by probing the
     *     server (SEQ_PROBE) before it validates the record; FLOOR_UNKNOWN
     *     until then (nothing fills the record); the fence for a record
     *     recovery re-admits.
     * A GET_FOR_CACHE reply fills an outdated record only if its seq is at
     * least both. A write numbered before the admission may still reach the
     * server after a fill: its acknowledgement passes here with a higher seq
     * than the record's and makes the record outdated (FR-18), before its
     * client can know the write completed. */
    register<seq_t>(CACHE_CAPACITY) record_seen_seq;
    register<seq_t>(CACHE_CAPACITY) record_fill_floor;
    /* the snapshot epoch in which this record's original was already reported
     * or loaded by the controller (§3.4) */
    register<snapshot_epoch_t>(CACHE_CAPACITY) record_saved_epoch;
    /* The snapshot flag (§3.4): 0 = no snapshot in progress, e > 0 = snapshot
     * number e is being generated. Numbering snapshots turns "already saved in
     * this snapshot" into a comparison, so nothing per record has to be
     * cleared between snapshots. */
    register<snapshot_epoch_t>(1) snapshot_epoch;

    /* Copies of a write (innet extension, docs/farreach.md "Client semantics").
     * A client has one operation outstanding and request ids that only grow
     * (incarnation << 24 | counter), so per client (CLIENT_SLOTS, by the low
     * byte of its IPv4 address) the switch keeps the request id and sequence
     * number of the last write it numbered. A copy of that write (a retry
     * after a lost reply, or a duplicate on the link) gets its first number
     * again instead of a new one, so servers, which keep a record only if its
     * seq is higher, and the cache (below) apply it at most once. A copy of an
     * older write is dropped: its client has moved on and nobody waits for it.
     * Lost with the switch: clients do not retry a write across a recovery. */
    register<bit<32>>(CLIENT_SLOTS) client_write_req_id;
    register<seq_t>(CLIENT_SLOTS) client_write_seq;

    /* 1 = some slot's counter reached SEQ_HIGH_WATER in its range: the
     * controller raises every counter to the next range's base and clears
     * it. A slot at the end of its range numbers nothing (DROP_SEQ_EXHAUSTED)
     * until then, so no number ever leaves its range or wraps. */
    register<bit<1>>(1) seq_range_exhausted;

    /* §3.2/§3.3: a latest record is returned by the switch itself (also while
     * it is being evicted). A tombstone is NOT_FOUND with vallen 0. */
    action answer_get(seq_t seq, vallen_t vallen, bit<8> status) {
        hdr.innet.op = OP_GET_REPLY;
        hdr.innet.status = status;
        hdr.innet.flags = 0;
        hdr.innet.seq = seq;
        hdr.innet.vallen = vallen;
        meta.value_load_to_packet = true;
        meta.value_words_to_load = (bit<8>) ((vallen + 7) >> 3);
        meta.value_resized = true;
        meta.answer_from_switch = true;
    }

    /* §3.2: for an outdated record FarReach "conservatively forwards the read
     * request to the server to obtain the latest record". */
    action forward_conservative_read() {
        hdr.innet.op = OP_GET_FOR_CACHE;
    }

    /* §3.3 record embedding (Figure 5(b) step (1)): "before forwarding a read
     * to the server, the in-switch cache embeds the outdated evicted record
     * ... the value and sequence number assigned by the switch"; the server
     * keeps whichever of its record and the embedded one has the higher seq. */
    action embed_record(seq_t seq, vallen_t vallen, bit<8> deleted_flag) {
        hdr.innet.op = OP_GET_EMBED;
        hdr.innet.flags = hdr.innet.flags | deleted_flag;
        hdr.innet.seq = seq;
        hdr.innet.vallen = vallen;
        meta.value_load_to_packet = true;
        meta.value_words_to_load = (bit<8>) ((vallen + 7) >> 3);
        meta.value_resized = true;
    }

    /* §3.2 write-back: the cache absorbs the write and answers it. The seq the
     * write got stays in the reply: the client preserves (value, seq) for
     * zero-loss recovery (§3.4). */
    action answer_write(bit<8> reply_op) {
        hdr.innet.op = reply_op;
        hdr.innet.status = STATUS_OK;
        hdr.innet.flags = 0;
        hdr.innet.vallen = 0;
        meta.value_strip_packet = true;
        meta.value_resized = true;
        meta.answer_from_switch = true;
    }

    /* §3.4: the record as it is now goes to the controller with a clone of
     * this packet, before this packet changes it. */
    action report_original(seq_t seq, vallen_t vallen, bit<8> deleted_flag) {
        meta.original_req_id = hdr.innet.req_id;
        meta.original_key = hdr.innet.key;
        meta.original_seq = seq;
        meta.original_vallen = vallen;
        meta.original_flags = deleted_flag;
        meta.value_save_original = true;
        meta.snapshot_report = true;
    }

    apply {
        /* ---- 1 frame validation and forwarding -------------------------- */
        validate_frame();
        if (meta.drop_reason == DROP_NONE) {
            ipv4_forward.apply();
        }

        /* ---- 2 classification -------------------------------------------- */
        if (meta.drop_reason == DROP_NONE && meta.is_kv) {
            classify_kv_message();
        }

        /* ---- 2b recovery gate (§3.4) ---------------------------------- */
        if (meta.is_client_request) {
            bit<1> gate;
            recovering.read(gate, 0);
            if (gate == 1) {
                meta.drop_reason = DROP_RECOVERING;
                meta.is_client_request = false;
            }
        }

        if (meta.is_client_request || meta.is_server_reply) {
            /* ---- 3 cache lookup ------------------------------------------ */
            cache_lookup.apply();

            /* ---- 4 sequence numbers (§3.3, §4.2) ------------------------- */
            if (meta.is_write) {
                bit<32> client = (bit<32>) hdr.ipv4.src_addr[7:0];
                bit<32> last_req_id;
                client_write_req_id.read(last_req_id, client);
                read_seq_bound();      /* the last number of the key's slot */
                if (hdr.innet.req_id == last_req_id) {
                    /* a copy of the client's last numbered write */
                    client_write_seq.read(hdr.innet.seq, client);
                    hdr.innet.op = (hdr.innet.op == OP_PUT) ? OP_PUT_SEQ : OP_DEL_SEQ;
                    meta.stale_write_copy = hdr.innet.seq != meta.seq_bound;
                } else if (hdr.innet.req_id < last_req_id) {
                    meta.drop_reason = DROP_OLD_WRITE_COPY;
                } else if ((meta.seq_bound & SEQ_RANGE_MASK) == SEQ_RANGE_LAST) {
                    seq_range_exhausted.write(0, 1);
                    meta.drop_reason = DROP_SEQ_EXHAUSTED;
                } else {
                    assign_seq();      /* now PUT_SEQ / DEL_SEQ with its seq */
                    client_write_req_id.write(client, hdr.innet.req_id);
                    client_write_seq.write(client, hdr.innet.seq);
                    if ((hdr.innet.seq & SEQ_RANGE_MASK) >= SEQ_HIGH_WATER) {
                        seq_range_exhausted.write(0, 1);
                    }
                }
                if (meta.drop_reason != DROP_NONE) {
                    meta.is_client_request = false;
                    meta.is_write = false;
                }
            }

            /* ---- 4b what the switch has seen of a cached key (FR-18) ----- */
            seq_t seen_before = 0;
            if (meta.cache_lookup_hit && (meta.is_write || meta.is_server_reply)) {
                bit<32> seen_index = (bit<32>) meta.cache_idx;
                record_seen_seq.read(seen_before, seen_index);
                if (hdr.innet.seq > seen_before) {
                    record_seen_seq.write(seen_index, hdr.innet.seq);
                }
            }

            /* ---- 5 FarReach record decisions ----------------------------- */
            if (meta.cache_lookup_hit) {
                bit<32> index = (bit<32>) meta.cache_idx;
                bit<1> valid;
                record_valid.read(valid, index);
                if (valid == 1) {
                    meta.cached = true;

                    bit<1> latest;
                    bit<1> deleted;
                    bit<1> evicting;
                    seq_t seq;
                    vallen_t vallen;
                    record_latest.read(latest, index);
                    record_deleted.read(deleted, index);
                    record_evicting.read(evicting, index);
                    record_seq.read(seq, index);
                    record_vallen.read(vallen, index);

                    seq_t fill_floor;
                    record_fill_floor.read(fill_floor, index);

                    bit<8> deleted_flag = 0;
                    vallen_t visible_vallen = vallen;
                    if (deleted == 1) {
                        deleted_flag = FLAG_DELETED;
                        visible_vallen = 0;
                    }

                    /* §3.4: would a change now be the first one to this record
                     * in the snapshot being generated? */
                    snapshot_epoch_t epoch;
                    snapshot_epoch_t saved_epoch;
                    snapshot_epoch.read(epoch, 0);
                    record_saved_epoch.read(saved_epoch, index);
                    bool report_before_change = epoch != 0 && saved_epoch != epoch;

                    if (meta.is_client_request && hdr.innet.op == OP_GET) {
                        if (!meta.value_parsed) {
                            /* a GET carrying a value above 128 bytes cannot be
                             * answered in place: relayed as it is */
                        } else if (latest == 1) {
                            if (deleted == 1) {
                                answer_get(seq, 0, STATUS_NOT_FOUND);
                            } else {
                                answer_get(seq, vallen, STATUS_OK);
                            }
                        } else if (evicting == 0) {
                            forward_conservative_read();
                        } else {
                            embed_record(seq, visible_vallen, deleted_flag);
                        }
                    } else if (meta.is_write && meta.stale_write_copy) {
                        /* FR-16: relayed with its first number; the cached
                         * record is newer than it, or the server decides */
                    } else if (meta.is_write) {
                        bool is_put = hdr.innet.op == OP_PUT_SEQ;
                        if (evicting == 0 && (!is_put || meta.value_parsed)) {
                            /* §3.2: a client write makes an outdated record
                             * latest; a latest one is simply overwritten. */
                            if (report_before_change) {
                                report_original(seq, visible_vallen, deleted_flag);
                                record_saved_epoch.write(index, epoch);
                            }
                            record_latest.write(index, 1);
                            record_seq.write(index, hdr.innet.seq);
                            if (is_put) {
                                record_deleted.write(index, 0);
                                record_vallen.write(index, hdr.innet.vallen);
                                meta.value_store_from_packet = true;
                                answer_write(OP_PUT_REPLY);
                            } else {
                                record_deleted.write(index, 1);
                                record_vallen.write(index, 0);
                                answer_write(OP_DEL_REPLY);
                            }
                        } else {
                            /* §3.3: "If there is any write request to the
                             * to-be-evicted R, FarReach simply forwards the
                             * write request to the server ... and marks the
                             * evicted record as outdated". §3.1: a value above
                             * 128 bytes is relayed uncached, which leaves the
                             * cached copy stale: outdated too. Value and seq
                             * stay: they are what record embedding sends.
                             * FR-9 also makes the record to-be-evicted: it
                             * may hold absorbed writes the server lacks, so
                             * reads must embed it (FR-5) until the relayed
                             * write lands or the controller evicts it; a
                             * plain conservative read would return the
                             * server's older record (docs/farreach.md). */
                            record_latest.write(index, 0);
                            record_evicting.write(index, 1);
                        }
                    } else if (meta.is_server_reply && hdr.innet.op == OP_GET_FOR_CACHE_REPLY) {
                        /* §3.2 Figure 3(b) step (3): a read response from the
                         * server carries the latest record. Taken only if it is
                         * no older than anything of the key seen since the
                         * admission nor than the server's record at the
                         * admission (FR-11: seq >= seen and >= the fill
                         * floor, which is known), the record is still outdated
                         * and not being evicted, and the value fits. */
                        bool fill_allowed = fill_floor != FLOOR_UNKNOWN && hdr.innet.seq >= fill_floor && hdr.innet.seq >= seen_before;
                        if (latest == 0 && evicting == 0 && meta.value_parsed
                            && (hdr.innet.status == STATUS_OK || hdr.innet.status == STATUS_NOT_FOUND)
                            && fill_allowed) {
                            if (report_before_change) {
                                report_original(seq, visible_vallen, deleted_flag);
                                record_saved_epoch.write(index, epoch);
                            }
                            record_latest.write(index, 1);
                            record_seq.write(index, hdr.innet.seq);
                            if (hdr.innet.status == STATUS_OK) {
                                record_deleted.write(index, 0);
                                record_vallen.write(index, hdr.innet.vallen);
                                meta.value_store_from_packet = true;
                            } else {
                                record_deleted.write(index, 1);
                                record_vallen.write(index, 0);
                            }
                        } else if (latest == 1 && hdr.innet.seq > seq) {
                            /* FR-18: the server holds a newer record than the
                             * latest cached one (a write numbered before the
                             * admission landed after the fill) */
                            record_latest.write(index, 0);
                        }
                    } else if (meta.is_server_reply && latest == 1 && hdr.innet.seq > seq) {
                        /* FR-18, for every other server reply of the key */
                        record_latest.write(index, 0);
                    }
                }
            }
            /* The client asked GET: it gets GET_REPLY whether or not the
             * cache took the value. */
            if (meta.is_server_reply && hdr.innet.op == OP_GET_FOR_CACHE_REPLY) {
                hdr.innet.op = OP_GET_REPLY;
            }

            /* ---- 6 frequency tracking (§3.2) ------------------------------ */
            if (meta.is_client_request) {
                read_sample_mask();
                if (meta.sample_mask == 0) {
                    meta.sampled = true;
                } else {
                    draw_sample();
                }
                if (meta.sampled) {
                    if (meta.cached) {
                        count_cached_access();
                    } else {
                        count_uncached_access();
                    }
                }
            }

            /* ---- 7 value words: save, store, then load or strip ---------- */
            if (meta.value_save_original) {
                save_original_value();
            }
            if (meta.value_store_from_packet) {
                if (hdr.value_words[0].isValid()) { store_value_word_00(); }
                if (hdr.value_words[1].isValid()) { store_value_word_01(); }
                if (hdr.value_words[2].isValid()) { store_value_word_02(); }
                if (hdr.value_words[3].isValid()) { store_value_word_03(); }
                if (hdr.value_words[4].isValid()) { store_value_word_04(); }
                if (hdr.value_words[5].isValid()) { store_value_word_05(); }
                if (hdr.value_words[6].isValid()) { store_value_word_06(); }
                if (hdr.value_words[7].isValid()) { store_value_word_07(); }
                if (hdr.value_words[8].isValid()) { store_value_word_08(); }
                if (hdr.value_words[9].isValid()) { store_value_word_09(); }
                if (hdr.value_words[10].isValid()) { store_value_word_10(); }
                if (hdr.value_words[11].isValid()) { store_value_word_11(); }
                if (hdr.value_words[12].isValid()) { store_value_word_12(); }
                if (hdr.value_words[13].isValid()) { store_value_word_13(); }
                if (hdr.value_words[14].isValid()) { store_value_word_14(); }
                if (hdr.value_words[15].isValid()) { store_value_word_15(); }
            }
            if (meta.value_load_to_packet) {
                if (meta.value_words_to_load > 0) { load_value_word_00(); } else { hdr.value_words[0].setInvalid(); }
                if (meta.value_words_to_load > 1) { load_value_word_01(); } else { hdr.value_words[1].setInvalid(); }
                if (meta.value_words_to_load > 2) { load_value_word_02(); } else { hdr.value_words[2].setInvalid(); }
                if (meta.value_words_to_load > 3) { load_value_word_03(); } else { hdr.value_words[3].setInvalid(); }
                if (meta.value_words_to_load > 4) { load_value_word_04(); } else { hdr.value_words[4].setInvalid(); }
                if (meta.value_words_to_load > 5) { load_value_word_05(); } else { hdr.value_words[5].setInvalid(); }
                if (meta.value_words_to_load > 6) { load_value_word_06(); } else { hdr.value_words[6].setInvalid(); }
                if (meta.value_words_to_load > 7) { load_value_word_07(); } else { hdr.value_words[7].setInvalid(); }
                if (meta.value_words_to_load > 8) { load_value_word_08(); } else { hdr.value_words[8].setInvalid(); }
                if (meta.value_words_to_load > 9) { load_value_word_09(); } else { hdr.value_words[9].setInvalid(); }
                if (meta.value_words_to_load > 10) { load_value_word_10(); } else { hdr.value_words[10].setInvalid(); }
                if (meta.value_words_to_load > 11) { load_value_word_11(); } else { hdr.value_words[11].setInvalid(); }
                if (meta.value_words_to_load > 12) { load_value_word_12(); } else { hdr.value_words[12].setInvalid(); }
                if (meta.value_words_to_load > 13) { load_value_word_13(); } else { hdr.value_words[13].setInvalid(); }
                if (meta.value_words_to_load > 14) { load_value_word_14(); } else { hdr.value_words[14].setInvalid(); }
                if (meta.value_words_to_load > 15) { load_value_word_15(); } else { hdr.value_words[15].setInvalid(); }
            }
            if (meta.value_strip_packet) {
                strip_value_words();
            }

            /* ---- 8 reply framing ------------------------------------------ */
            if (meta.answer_from_switch) {
                swap_to_reply();
            }
            if (meta.value_resized) {
                set_lengths_from_vallen();
            }
            clear_udp_checksum();

            /* ---- 9 snapshot (§3.4 Figure 6 step (2)) --------------------- */
            if (meta.snapshot_report) {
                clone_preserving_field_list(CloneType.I2E, CPU_CLONE_SESSION,
                                            FIELD_LIST_SNAPSHOT_ORIGINAL);
            }
        }

        if (meta.drop_reason != DROP_NONE) {
            drop_with_reason();
        }
    }
}

/*
 * Egress: only the snapshot clone is processed. FarReach §3.4, Figure 6 step
 * (2): "If the switch receives the first write to a cached record R during
 * snapshot generation, it forwards the original R to the controller before R
 * is updated." Ingress cloned the packet (I2E) to CPU_CLONE_SESSION, which the
 * control plane points at CPU_PORT, with the original record, key and req_id
 * in the @field_list(1) metadata; here the clone becomes a SNAPSHOT_ORIGINAL
 * message (wire-format.md §3, op 0x23, UDP 5009).
 *
 * Every header is made valid and every field written from constants and the
 * field list, so the message does not depend on what the target hands egress
 * as the clone's headers: bmv2 re-parses the original packet (all of it is
 * headers: its value was <= 128 bytes), another target may hand over the
 * headers as ingress left them, or none.
 */
control MyEgress(inout headers_t hdr,
                 inout local_metadata_t meta,
                 inout standard_metadata_t standard_metadata) {

    /* From and to the switch's CPU/controller identity (host 254), framed as
     * wire-format.md §1 prescribes for encoders. */
    action build_snapshot_original() {
        hdr.ethernet.setValid();
        hdr.ethernet.dst_addr = CONTROLLER_MAC;
        hdr.ethernet.src_addr = CONTROLLER_MAC;
        hdr.ethernet.ether_type = ETHERTYPE_IPV4;

        bit<16> padded_value_bytes = (meta.original_vallen + 7) & 0xFFF8;
        bit<16> udp_length = UDP_HEADER_BYTES + INNET_HEADER_BYTES + padded_value_bytes;

        hdr.ipv4.setValid();
        hdr.ipv4.version = IPV4_VERSION;
        hdr.ipv4.ihl = IPV4_IHL_NO_OPTIONS;
        hdr.ipv4.dscp_ecn = 0;
        hdr.ipv4.total_len = IPV4_HEADER_BYTES + udp_length;
        hdr.ipv4.identification = 0;
        hdr.ipv4.flags = IPV4_FLAG_DF;
        hdr.ipv4.frag_offset = 0;
        hdr.ipv4.ttl = IPV4_DEFAULT_TTL;
        hdr.ipv4.protocol = IP_PROTO_UDP;
        hdr.ipv4.hdr_checksum = 0;             /* MyComputeChecksum fills it in */
        hdr.ipv4.src_addr = CONTROLLER_IP;
        hdr.ipv4.dst_addr = CONTROLLER_IP;

        hdr.udp.setValid();
        hdr.udp.src_port = UDP_PORT_KV_CONTROL;
        hdr.udp.dst_port = UDP_PORT_KV_CONTROL;
        hdr.udp.length = udp_length;
        hdr.udp.checksum = 0;

        hdr.innet.setValid();
        hdr.innet.magic = INNET_MAGIC;
        hdr.innet.op = OP_SNAPSHOT_ORIGINAL;
        hdr.innet.flags = meta.original_flags;
        hdr.innet.status = STATUS_OK;
        hdr.innet.req_id = meta.original_req_id;
        hdr.innet.key = meta.original_key;
        hdr.innet.seq = meta.original_seq;
        hdr.innet.vallen = meta.original_vallen;
        hdr.innet.extlen = 0;
    }

    apply {
        if (standard_metadata.instance_type == PKT_INSTANCE_TYPE_INGRESS_CLONE) {
            build_snapshot_original();
            /* original_vallen <= 128: it was a cached record */
            bit<8> words = (bit<8>) ((meta.original_vallen + 7) >> 3);
            if (words > 0) { hdr.value_words[0].setValid(); hdr.value_words[0].word = meta.original_word_00; } else { hdr.value_words[0].setInvalid(); }
            if (words > 1) { hdr.value_words[1].setValid(); hdr.value_words[1].word = meta.original_word_01; } else { hdr.value_words[1].setInvalid(); }
            if (words > 2) { hdr.value_words[2].setValid(); hdr.value_words[2].word = meta.original_word_02; } else { hdr.value_words[2].setInvalid(); }
            if (words > 3) { hdr.value_words[3].setValid(); hdr.value_words[3].word = meta.original_word_03; } else { hdr.value_words[3].setInvalid(); }
            if (words > 4) { hdr.value_words[4].setValid(); hdr.value_words[4].word = meta.original_word_04; } else { hdr.value_words[4].setInvalid(); }
            if (words > 5) { hdr.value_words[5].setValid(); hdr.value_words[5].word = meta.original_word_05; } else { hdr.value_words[5].setInvalid(); }
            if (words > 6) { hdr.value_words[6].setValid(); hdr.value_words[6].word = meta.original_word_06; } else { hdr.value_words[6].setInvalid(); }
            if (words > 7) { hdr.value_words[7].setValid(); hdr.value_words[7].word = meta.original_word_07; } else { hdr.value_words[7].setInvalid(); }
            if (words > 8) { hdr.value_words[8].setValid(); hdr.value_words[8].word = meta.original_word_08; } else { hdr.value_words[8].setInvalid(); }
            if (words > 9) { hdr.value_words[9].setValid(); hdr.value_words[9].word = meta.original_word_09; } else { hdr.value_words[9].setInvalid(); }
            if (words > 10) { hdr.value_words[10].setValid(); hdr.value_words[10].word = meta.original_word_10; } else { hdr.value_words[10].setInvalid(); }
            if (words > 11) { hdr.value_words[11].setValid(); hdr.value_words[11].word = meta.original_word_11; } else { hdr.value_words[11].setInvalid(); }
            if (words > 12) { hdr.value_words[12].setValid(); hdr.value_words[12].word = meta.original_word_12; } else { hdr.value_words[12].setInvalid(); }
            if (words > 13) { hdr.value_words[13].setValid(); hdr.value_words[13].word = meta.original_word_13; } else { hdr.value_words[13].setInvalid(); }
            if (words > 14) { hdr.value_words[14].setValid(); hdr.value_words[14].word = meta.original_word_14; } else { hdr.value_words[14].setInvalid(); }
            if (words > 15) { hdr.value_words[15].setValid(); hdr.value_words[15].word = meta.original_word_15; } else { hdr.value_words[15].setInvalid(); }
        }
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
