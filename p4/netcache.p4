/*
 * netcache.p4: the write-through in-switch cache baseline of FarReach §5
 * ("NetCache, i.e., the in-switch cache that implements write-through
 * caching"), after NetCache (Jin et al., SOSP 2017).
 *
 * Reads of valid cached keys are answered by the switch. Every write goes to
 * the server (as PUT_SEQ / DEL_SEQ with a switch-assigned seq); a write to a
 * cached key first invalidates it, so no read is answered from the cache while
 * the server may hold a newer value. The cache becomes valid again from the
 * server's side:
 *   - the server's PUT_REPLY (status OK) for the last write numbered for the
 *     key commits the value that write staged in the registers: the server
 *     acknowledging the write is the refresh, no extra message;
 *   - a read of an invalid cached key goes to the server as GET_FOR_CACHE and
 *     the GET_FOR_CACHE_REPLY refills the record (after a DEL, a value above
 *     128 bytes, a lost reply, or admission).
 * Both only when no write of the key numbered later than the reply's seq can
 * be in flight: the reply's seq must reach everything of the key the switch
 * has seen since its admission (record_seen_seq) and the key's server record
 * at its admission (record_fill_floor, probed by the controller); a server
 * reply newer than a valid record invalidates it (NC-11). NetCache.tla's
 * FillBySeen.
 *
 * NetCache proper has the switch report hot keys to the controller through a
 * Bloom filter; here the switch only flags the forwarded request (FLAG_HOT)
 * and the server reports, as in FarReach §3.2, so both cache programs share
 * server and controller code for admission.
 *
 * Control-plane interface: docs/p4-programs.md, section netcache.p4.
 *
 * Structure of MyIngress.apply, in order (each step reads what earlier steps
 * wrote into meta):
 *   1 frame validation and IPv4 forwarding      (include/ingress_forwarding.p4)
 *   2 classification of key-value messages      (include/ingress_cache.p4)
 *   3 cache lookup                              (include/ingress_cache.p4)
 *   4 sequence numbers                          (include/ingress_cache.p4)
 *   5 NetCache record decisions                 (this file)
 *   6 frequency tracking                        (include/ingress_cache.p4)
 *   7 value words in and out of registers       (include/ingress_cache.p4)
 *   8 reply framing, lengths, checksum          (include/ingress_cache.p4)
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
     * NetCache per-record state (index x = the cache_lookup result).
     * ====================================================================== */

    /* 1 = the cached value is the server's current value: reads are answered
     * by the switch. */
    register<bit<1>>(CACHE_CAPACITY) record_valid;
    /* seq of the cached value; while invalid, the seq of the value staged by
     * the last write (0 = nothing staged) */
    register<seq_t>(CACHE_CAPACITY) record_seq;
    /* value length in bytes, <= 128; the value is in value_word_00..15 */
    register<vallen_t>(CACHE_CAPACITY) record_vallen;
    /* The fill rule of NC-7/NC-8, which needs no per-key counter
     * (NetCache.tla's FillBySeen; docs/specs/netcache.md §4a). Keys share
     * seq_counter slots, and a slot's counter also counts other keys' writes,
     * so it bounds no single key: with it, a key admitted after another key
     * of its slot was written stayed invalid until its own next write, for
     * good in a read-only phase (NetCacheSharedSeqSlotTest). Instead:
     *   - record_seen_seq: the highest seq of the key seen pass since its
     *     admission: every write numbered while its lookup entry exists and
     *     every server reply of the key;
     *   - record_fill_floor: the seq of the key's server record after the
     *     entry was installed, which the controller learns by probing the
     *     server (SEQ_PROBE); FLOOR_UNKNOWN until then (nothing validates the
     *     record).
     * A reply validates only at or above both. A write numbered before the
     * admission may still reach the server after a refill: its reply passes
     * here with a seq above the record's and invalidates it (NC-11) before
     * its client can know the write completed. */
    register<seq_t>(CACHE_CAPACITY) record_seen_seq;
    register<seq_t>(CACHE_CAPACITY) record_fill_floor;

    action answer_get(seq_t seq, vallen_t vallen) {
        hdr.innet.op = OP_GET_REPLY;
        hdr.innet.status = STATUS_OK;
        hdr.innet.flags = 0;
        hdr.innet.seq = seq;
        hdr.innet.vallen = vallen;
        meta.value_load_to_packet = true;
        meta.value_words_to_load = (bit<8>) ((vallen + 7) >> 3);
        meta.value_resized = true;
        meta.answer_from_switch = true;
    }

    /* An invalid cached key is read from the server in a way that lets the
     * reply refill the cache. */
    action forward_refresh_read() {
        hdr.innet.op = OP_GET_FOR_CACHE;
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

        if (meta.is_client_request || meta.is_server_reply) {
            /* ---- 3 cache lookup ------------------------------------------ */
            cache_lookup.apply();

            /* ---- 4 sequence numbers -------------------------------------- */
            if (meta.is_write) {
                assign_seq();          /* now PUT_SEQ / DEL_SEQ with its seq */
            }

            /* ---- 5 NetCache record decisions ----------------------------- */
            if (meta.cache_lookup_hit) {
                bit<32> index = (bit<32>) meta.cache_idx;
                /* A cached key counts in the counter array whether or not its
                 * value is valid now: its popularity is what eviction needs. */
                meta.cached = true;
                bit<1> valid;
                record_valid.read(valid, index);
                /* what the switch has seen of the key, before this packet,
                 * and this packet's seq seen (see record_seen_seq) */
                seq_t seen_before;
                record_seen_seq.read(seen_before, index);
                if ((meta.is_write || meta.is_server_reply) && hdr.innet.seq > seen_before) {
                    record_seen_seq.write(index, hdr.innet.seq);
                }
                /* the seq a reply must reach to make the record valid
                 * (FLOOR_UNKNOWN, above every seq, until the probe returns) */
                seq_t fill_floor;
                record_fill_floor.read(fill_floor, index);
                seq_t refresh_bound = (fill_floor > seen_before) ? fill_floor : seen_before;
                seq_t cached_seq;
                record_seq.read(cached_seq, index);

                if (meta.is_client_request && hdr.innet.op == OP_GET) {
                    if (!meta.value_parsed) {
                        /* a GET carrying a value above 128 bytes: relayed */
                    } else if (valid == 1) {
                        vallen_t vallen;
                        record_vallen.read(vallen, index);
                        answer_get(cached_seq, vallen);
                    } else {
                        forward_refresh_read();
                    }
                } else if (meta.is_write) {
                    /* write-through: invalidate, then forward */
                    record_valid.write(index, 0);
                    if (hdr.innet.op == OP_PUT_SEQ && meta.value_parsed) {
                        /* stage the value; the server's acknowledgement commits it */
                        record_seq.write(index, hdr.innet.seq);
                        record_vallen.write(index, hdr.innet.vallen);
                        meta.value_store_from_packet = true;
                    } else {
                        /* DEL, or a value too large to cache: nothing to commit */
                        record_seq.write(index, 0);
                    }
                } else if (meta.is_server_reply && valid == 1) {
                    /* NC-11: the server holds a newer record than the valid
                     * cached one (a write numbered before the admission landed
                     * after a refill): reads go to the server again */
                    if (hdr.innet.seq > cached_seq) {
                        record_valid.write(index, 0);
                    }
                } else if (meta.is_server_reply && hdr.innet.op == OP_PUT_REPLY) {
                    /* NC-7: record_seq is the staged seq while invalid */
                    if (hdr.innet.status == STATUS_OK
                        && cached_seq != 0 && hdr.innet.seq == cached_seq
                        && hdr.innet.seq >= refresh_bound) {
                        record_valid.write(index, 1);
                    }
                } else if (meta.is_server_reply && hdr.innet.op == OP_GET_FOR_CACHE_REPLY) {
                    if (hdr.innet.status == STATUS_OK && meta.value_parsed
                        && hdr.innet.seq >= refresh_bound) {
                        record_seq.write(index, hdr.innet.seq);
                        record_vallen.write(index, hdr.innet.vallen);
                        meta.value_store_from_packet = true;
                        record_valid.write(index, 1);
                    }
                }
            }
            /* The client asked GET: it gets GET_REPLY. */
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

            /* ---- 7 value words: store, then load --------------------------- */
            /* (NetCache keeps no snapshot originals and never strips a packet's value, so the
               shared value-word code's save and strip steps, which only farreach.p4 takes, are
               left out: conformance's P4 coverage showed them unreachable here.) */
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
            /* ---- 8 reply framing ------------------------------------------ */
            if (meta.answer_from_switch) {
                swap_to_reply();
            }
            if (meta.value_resized) {
                set_lengths_from_vallen();
            }
            clear_udp_checksum();

        }

        if (meta.drop_reason != DROP_NONE) {
            drop_with_reason();
        }
    }
}

control MyEgress(inout headers_t hdr,
                 inout local_metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
