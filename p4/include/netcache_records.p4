/*
 * innet P4 data planes: NetCache-style write-through records (the baseline of
 * FarReach §5; "writes invalidate and the server refreshes"). Used by
 * netcache.p4.
 *
 * Per record (index x = the cache_lookup result):
 *   record_valid[x]   1 = the cached value is the server's current value and
 *                     reads are answered by the switch.
 *   record_seq[x]     seq of the cached value; while invalid, the seq of the
 *                     value staged by the last write (0 = nothing staged).
 *   record_vallen[x]  value length (<= 128); the value is in ValueStore.
 *
 * Write-through: every write goes to the server (as PUT_SEQ / DEL_SEQ with a
 * switch-assigned seq, see sequence.p4) and a write to a cached key first
 * invalidates it, so no read is answered from the cache while the server may
 * hold a newer value. The cache becomes valid again from the server's side:
 *   - the server's PUT_REPLY (status OK) for the last write numbered for this
 *     key commits the value that write staged in the registers (the server
 *     acknowledging the write is the refresh; no extra message);
 *   - a read of an invalid cached key goes to the server as GET_FOR_CACHE and
 *     the GET_FOR_CACHE_REPLY refills the record (after a DEL, a value above
 *     128 bytes, a lost reply, or admission).
 * Both only when the reply's seq >= seq_bound: no later-numbered write is in
 * flight, so the value is the newest one (sequence.p4).
 *
 * NetCache proper has the switch report hot keys to the controller through a
 * Bloom filter; here the switch only flags the request (FLAG_HOT) and the
 * server reports, exactly as in FarReach (§3.2), so both programs share the
 * servers and controller code path for admission.
 */
#ifndef INNET_NETCACHE_RECORDS_P4
#define INNET_NETCACHE_RECORDS_P4

control NetCacheRecords(inout headers_t hdr, inout local_metadata_t meta) {

    register<bit<1>>(CACHE_CAPACITY) record_valid;
    register<seq_t>(CACHE_CAPACITY) record_seq;
    register<vallen_t>(CACHE_CAPACITY) record_vallen;

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

    action forward_refresh_read() {
        hdr.innet.op = OP_GET_FOR_CACHE;
    }

    apply {
        if (meta.cache_lookup_hit) {
            bit<32> index = (bit<32>) meta.cache_idx;
            /* A cached key is counted by the counter array whether or not its
             * value is currently valid: it is the key's popularity that
             * matters for eviction. */
            meta.cached = true;
            bit<1> valid;
            record_valid.read(valid, index);

            if (meta.is_client_request && hdr.innet.op == OP_GET) {
                if (!meta.value_parsed) {
                    /* malformed GET with a large body: relay */
                } else if (valid == 1) {
                    seq_t seq;
                    vallen_t vallen;
                    record_seq.read(seq, index);
                    record_vallen.read(vallen, index);
                    answer_get(seq, vallen);
                } else {
                    forward_refresh_read();
                }
            } else if (meta.is_write) {
                /* write-through: invalidate first, then forward */
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
            } else if (meta.is_server_reply && hdr.innet.op == OP_PUT_REPLY) {
                seq_t staged_seq;
                record_seq.read(staged_seq, index);
                if (valid == 0 && hdr.innet.status == STATUS_OK
                    && staged_seq != 0 && hdr.innet.seq == staged_seq
                    && hdr.innet.seq >= meta.seq_bound) {
                    record_valid.write(index, 1);
                }
            } else if (meta.is_server_reply && hdr.innet.op == OP_GET_FOR_CACHE_REPLY) {
                if (valid == 0 && hdr.innet.status == STATUS_OK && meta.value_parsed
                    && hdr.innet.seq >= meta.seq_bound) {
                    record_seq.write(index, hdr.innet.seq);
                    record_vallen.write(index, hdr.innet.vallen);
                    meta.value_store_from_packet = true;
                    record_valid.write(index, 1);
                }
            }
        }

        /* The client asked GET; it gets GET_REPLY. */
        if (meta.is_server_reply && hdr.innet.op == OP_GET_FOR_CACHE_REPLY) {
            hdr.innet.op = OP_GET_REPLY;
        }
    }
}

#endif /* INNET_NETCACHE_RECORDS_P4 */
