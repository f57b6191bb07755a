/*
 * innet P4 data planes: FarReach's per-record state and its decisions
 * (write-back caching, FarReach §3.2-§3.4). Used by farreach.p4.
 *
 * Per record (index x = the cache_lookup result):
 *   record_valid[x]       1 = the controller finished admitting the record
 *                         (§3.2 "Atomic validity control", Figure 4). A key
 *                         with a lookup entry but valid 0 is a cache miss.
 *   record_latest[x]      1 = latest, 0 = outdated (§3.2, Figure 3(b)).
 *   record_deleted[x]     1 = the cached record is a tombstone (a DEL absorbed
 *                         by the cache), read as NOT_FOUND.
 *   record_evicting[x]    1 = to-be-evicted (§3.3, Figure 5(a)).
 *   record_seq[x]         sequence number of the cached value (§3.3).
 *   record_vallen[x]      value length in bytes (<= 128); the value itself is
 *                         in ValueStore's value_word_00..15[x].
 *   record_saved_epoch[x] the snapshot epoch in which this record's original
 *                         was already reported or loaded (§3.4).
 * Switch-wide:
 *   snapshot_epoch[0]     0 = no snapshot in progress; e > 0 = snapshot e is
 *                         being generated (§3.4 phase 1 sets it, the end of
 *                         phase 2 clears it). This is the snapshot flag;
 *                         numbering the snapshots makes "already saved in this
 *                         snapshot" a comparison, so no per-record state has
 *                         to be cleared between snapshots.
 *
 * The decision table (docs/p4-programs.md has it with the paper sections):
 *   GET,  latest (any evicting)     -> switch answers GET_REPLY (§3.2, §3.3)
 *   GET,  outdated, not evicting    -> GET_FOR_CACHE to the server (§3.2)
 *   GET,  outdated, evicting        -> GET_EMBED with the record (§3.3)
 *   PUT/DEL, not evicting, value<=128 -> write-back: record updated, latest,
 *                                    switch answers PUT_REPLY/DEL_REPLY (§3.2)
 *   PUT/DEL, evicting, or PUT value>128 -> forwarded as PUT_SEQ/DEL_SEQ,
 *                                    record marked outdated (§3.3, §3.1)
 *   GET_FOR_CACHE_REPLY, outdated, not evicting, seq >= seq_bound
 *                                 -> record refreshed from the reply, latest
 *                                    (§3.2 "a read response from the server")
 * A change to a record's value during a snapshot, the first in that
 * snapshot, reports the original to the controller first (§3.4).
 */
#ifndef INNET_FARREACH_RECORDS_P4
#define INNET_FARREACH_RECORDS_P4

control FarReachRecords(inout headers_t hdr, inout local_metadata_t meta) {

    register<bit<1>>(CACHE_CAPACITY) record_valid;
    register<bit<1>>(CACHE_CAPACITY) record_latest;
    register<bit<1>>(CACHE_CAPACITY) record_deleted;
    register<bit<1>>(CACHE_CAPACITY) record_evicting;
    register<seq_t>(CACHE_CAPACITY) record_seq;
    register<vallen_t>(CACHE_CAPACITY) record_vallen;
    register<snapshot_epoch_t>(CACHE_CAPACITY) record_saved_epoch;
    register<snapshot_epoch_t>(1) snapshot_epoch;

    /* §3.2/§3.3: a latest record is returned by the switch itself. A
     * tombstone is returned as NOT_FOUND with vallen 0 (the caller passes 0). */
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

    /* §3.2 "conservatively forwards the read request to the server" */
    action forward_conservative_read() {
        hdr.innet.op = OP_GET_FOR_CACHE;
    }

    /* §3.3 record embedding (Figure 5(b) step (1)): "the in-switch cache
     * embeds the outdated evicted record ... the value and sequence number
     * assigned by the switch" into the read it forwards; the server keeps
     * whichever of its record and the embedded one has the higher seq. */
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
     * write got (SequenceAssigner) stays in the reply, so the client can
     * preserve (value, seq) for zero-loss recovery (§3.4). */
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
        meta.original_seq = seq;
        meta.original_vallen = vallen;
        meta.original_flags = deleted_flag;
        meta.value_save_original = true;
        meta.snapshot_report = true;
    }

    apply {
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

                bit<8> deleted_flag = 0;
                vallen_t visible_vallen = vallen;
                if (deleted == 1) {
                    deleted_flag = FLAG_DELETED;
                    visible_vallen = 0;
                }

                /* §3.4: is a change now the first one to this record in the
                 * snapshot being generated? */
                snapshot_epoch_t epoch;
                snapshot_epoch_t saved_epoch;
                snapshot_epoch.read(epoch, 0);
                record_saved_epoch.read(saved_epoch, index);
                bool report_before_change = epoch != 0 && saved_epoch != epoch;

                if (meta.is_client_request && hdr.innet.op == OP_GET) {
                    if (!meta.value_parsed) {
                        /* A GET carrying a value > 128 bytes is malformed for
                         * the switch to answer in place: relay it. */
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
                } else if (meta.is_write) {
                    /* op is PUT_SEQ or DEL_SEQ now, with its seq assigned */
                    bool is_put = hdr.innet.op == OP_PUT_SEQ;
                    if (evicting == 0 && (!is_put || meta.value_parsed)) {
                        /* §3.2: a client write makes an outdated record
                         * latest; a latest one is simply updated. */
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
                         * to-be-evicted R, FarReach simply forwards the write
                         * request to the server ... and marks the evicted
                         * record as outdated". §3.1: a value above 128 bytes
                         * is relayed uncached; the cached copy is then stale,
                         * so it is outdated too. The cached value and seq stay
                         * as they are: they are what record embedding needs. */
                        record_latest.write(index, 0);
                    }
                } else if (meta.is_server_reply && hdr.innet.op == OP_GET_FOR_CACHE_REPLY) {
                    /* §3.2 Figure 3(b) step (3): the server's answer to a
                     * conservative read carries the latest record. Taken only
                     * if no write numbered after it is in flight (seq_bound,
                     * see sequence.p4), the record is still outdated, not being
                     * evicted, and the value fits. */
                    if (latest == 0 && evicting == 0 && meta.value_parsed
                        && (hdr.innet.status == STATUS_OK || hdr.innet.status == STATUS_NOT_FOUND)
                        && hdr.innet.seq >= meta.seq_bound) {
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
                    }
                }
            }
        }

        /* The client asked GET; it gets GET_REPLY whether or not the cache
         * used the answer. */
        if (meta.is_server_reply && hdr.innet.op == OP_GET_FOR_CACHE_REPLY) {
            hdr.innet.op = OP_GET_REPLY;
        }
    }
}

#endif /* INNET_FARREACH_RECORDS_P4 */
