/*
 * innet P4 data planes: the cache machinery netcache.p4 and farreach.p4
 * share: key lookup, switch-assigned sequence numbers, frequency tracking,
 * the value registers, and reply framing.
 *
 * A FRAGMENT OF MyIngress (see ingress_forwarding.p4 for why): #included
 * inside the body of MyIngress, so every name below is MyIngress.<name> for
 * the control plane. Straight-line actions only; the program's apply block
 * holds the control flow and calls them.
 */

/* ======================================================================
 * Classification of key-value messages (wire-format.md §3). Call only when
 * meta.is_kv (the innet header is valid).
 * ====================================================================== */

action classify_kv_message() {
    bool to_kv_port = hdr.udp.dst_port == UDP_PORT_KV;
    bool client_op = hdr.innet.op == OP_GET || hdr.innet.op == OP_PUT || hdr.innet.op == OP_DEL;
    meta.is_client_request = to_kv_port && client_op;
    meta.is_write = to_kv_port && (hdr.innet.op == OP_PUT || hdr.innet.op == OP_DEL);
    meta.is_server_reply = !to_kv_port && hdr.udp.src_port == UDP_PORT_KV;
}

/* ======================================================================
 * Cache lookup. FarReach §4.2: "a match-action table for cache lookup, which
 * matches the key (currently of size 16 bytes) in the packet header to obtain
 * the record location". An entry alone is not a hit: each program also checks
 * the record's validity (FarReach §3.2 "Atomic validity control").
 * ====================================================================== */

action set_cache_index(cache_idx_t index) {
    meta.cache_lookup_hit = true;
    meta.cache_idx = index;
}

action mark_cache_miss() {
    meta.cache_lookup_hit = false;
    meta.cache_idx = 0;
}

table cache_lookup {
    key = {
        hdr.innet.key: exact;
    }
    actions = {
        set_cache_index;
        mark_cache_miss;
    }
    default_action = mark_cache_miss();
    size = CACHE_LOOKUP_TABLE_SIZE;
}

/* ======================================================================
 * Sequence numbers. FarReach §3.3 "Identifying latest records": the switch
 * numbers every write in the order it serialises them, and a server stores a
 * record only if its seq is higher than its own. FarReach §4.2: one global
 * counter would overflow sooner, so "we maintain a register array with 32K
 * registers. We map the write requests of different keys into different
 * registers by hashing, and then increment the hashed register". A key always
 * hashes to the same slot, so its numbers increase.
 *
 * Slot of a key: CRC-32 (HashAlgorithm.crc32) of the 16 key bytes, mod SEQ_SLOTS.
 * ====================================================================== */

/* seq_counter[slot] = the last sequence number assigned in that slot */
register<seq_t>(SEQ_SLOTS) seq_counter;

/* A client PUT/DEL gets the next number of its slot and becomes PUT_SEQ /
 * DEL_SEQ (wire-format.md §3); whether the cache then absorbs it or forwards
 * it is the program's decision, either way it carries its number. */
action assign_seq() {
    bit<32> slot;
    hash(slot, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key }, SEQ_SLOTS);
    seq_t last_assigned;
    seq_counter.read(last_assigned, slot);
    seq_t assigned = last_assigned + 1;
    seq_counter.write(slot, assigned);
    hdr.innet.seq = assigned;
    hdr.innet.op = (hdr.innet.op == OP_PUT) ? OP_PUT_SEQ : OP_DEL_SEQ;
}

/* A server reply learns the last number assigned in its key's slot. A reply
 * with seq >= seq_bound reflects every write the switch has numbered for the
 * key (a later write would carry a larger number), so only such a reply may
 * make a cached record latest/valid again. This guards against a reply
 * overtaken by a write between switch and server (reordering, loss), which
 * the paper's in-order pipeline-to-server path need not consider. */
action read_seq_bound() {
    bit<32> slot;
    hash(slot, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key }, SEQ_SLOTS);
    seq_counter.read(meta.seq_bound, slot);
}

/* ======================================================================
 * Frequency tracking. FarReach §3.2 "Cache admission policy" (after
 * NetCache): a Count-Min Sketch for uncached keys, a counter array for cached
 * ones, sampled requests, "if the frequency exceeds a pre-defined threshold,
 * FarReach identifies the key as hot". The controller resets all of them
 * periodically (register reset). FarReach §3.2 has the *server* report the
 * hot record to the controller (Figure 3(a) step (2)), which lets the server
 * drop duplicate reports and removes NetCache's in-switch Bloom filter: the
 * switch only sets FLAG_HOT on the request it forwards.
 *
 * CMS row r: CRC-32 of (16 key bytes ++ 4-byte CMS_SALT_r), mod CMS_WIDTH;
 * the salts make four independent hash functions, none equal to the unsalted
 * sequence-slot hash.
 * ====================================================================== */

const bit<32> CMS_SALT_0 = 0x00000000;
const bit<32> CMS_SALT_1 = 0x9e3779b9;
const bit<32> CMS_SALT_2 = 0x7f4a7c15;
const bit<32> CMS_SALT_3 = 0x5bd1e995;

/* Count-Min Sketch, 4 rows of 64K counters (§4.2) */
register<frequency_t>(CMS_WIDTH) cms_row_0;
register<frequency_t>(CMS_WIDTH) cms_row_1;
register<frequency_t>(CMS_WIDTH) cms_row_2;
register<frequency_t>(CMS_WIDTH) cms_row_3;

/* cached_frequency[cache index] = sampled requests to that cached key; the
 * controller samples it to choose an eviction victim (§3.3). */
register<frequency_t>(CACHE_CAPACITY) cached_frequency;

/* Sampling: a request is counted iff (random byte & sample_mask[0]) == 0.
 * 0 counts every request and draws no random number (the default,
 * deterministic for tests); 1 is the paper's rate 0.5 (§5.1); 3 is 0.25. */
register<bit<8>>(1) sample_mask;

/* Hot threshold for the CMS estimate; 0 means DEFAULT_HOT_THRESHOLD (20, §5.1). */
register<frequency_t>(1) hot_threshold;

action read_sample_mask() {
    sample_mask.read(meta.sample_mask, 0);
}

action draw_sample() {
    bit<8> draw;
    random(draw, (bit<8>) 0, (bit<8>) 255);
    meta.sampled = (draw & meta.sample_mask) == 0;
}

action count_cached_access() {
    bit<32> index = (bit<32>) meta.cache_idx;
    frequency_t count;
    cached_frequency.read(count, index);
    cached_frequency.write(index, count + 1);
}

action count_uncached_access() {
    bit<32> i0;
    bit<32> i1;
    bit<32> i2;
    bit<32> i3;
    hash(i0, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, CMS_SALT_0 }, CMS_WIDTH);
    hash(i1, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, CMS_SALT_1 }, CMS_WIDTH);
    hash(i2, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, CMS_SALT_2 }, CMS_WIDTH);
    hash(i3, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, CMS_SALT_3 }, CMS_WIDTH);
    frequency_t c0;
    frequency_t c1;
    frequency_t c2;
    frequency_t c3;
    cms_row_0.read(c0, i0);
    cms_row_1.read(c1, i1);
    cms_row_2.read(c2, i2);
    cms_row_3.read(c3, i3);
    c0 = c0 + 1;
    c1 = c1 + 1;
    c2 = c2 + 1;
    c3 = c3 + 1;
    cms_row_0.write(i0, c0);
    cms_row_1.write(i1, c1);
    cms_row_2.write(i2, c2);
    cms_row_3.write(i3, c3);
    /* Count-Min estimate: the smallest row counter */
    frequency_t min01 = (c0 < c1) ? c0 : c1;
    frequency_t min23 = (c2 < c3) ? c2 : c3;
    frequency_t estimate = (min01 < min23) ? min01 : min23;
    frequency_t threshold;
    hot_threshold.read(threshold, 0);
    threshold = (threshold == 0) ? DEFAULT_HOT_THRESHOLD : threshold;
    hdr.innet.flags = (estimate >= threshold) ? (hdr.innet.flags | FLAG_HOT) : hdr.innet.flags;
}

/* ======================================================================
 * Values. A value of up to 128 bytes is 16 words of 8 bytes; word i of the
 * record at index x is value_word_<ii>[x] (ii = 00..15). The program's
 * record_vallen[x] says how many bytes are meaningful; words past it are
 * stale and never read into a packet. FarReach §4.2 keeps values in "the
 * remaining 8 (out of 12) stages ... 32 register arrays of 4-byte registers";
 * docs/tna-mapping.md maps the 16 bit<64> arrays back to that.
 *
 * The program's apply block runs these in the order
 *   save_original_value (snapshot, §3.4) -> store_value_word_* ->
 *   load_value_word_* / strip_value_words,
 * so a change can report the record as it was before it (§3.4, Figure 6).
 * ====================================================================== */

register<value_word_t>(CACHE_CAPACITY) value_word_00;
register<value_word_t>(CACHE_CAPACITY) value_word_01;
register<value_word_t>(CACHE_CAPACITY) value_word_02;
register<value_word_t>(CACHE_CAPACITY) value_word_03;
register<value_word_t>(CACHE_CAPACITY) value_word_04;
register<value_word_t>(CACHE_CAPACITY) value_word_05;
register<value_word_t>(CACHE_CAPACITY) value_word_06;
register<value_word_t>(CACHE_CAPACITY) value_word_07;
register<value_word_t>(CACHE_CAPACITY) value_word_08;
register<value_word_t>(CACHE_CAPACITY) value_word_09;
register<value_word_t>(CACHE_CAPACITY) value_word_10;
register<value_word_t>(CACHE_CAPACITY) value_word_11;
register<value_word_t>(CACHE_CAPACITY) value_word_12;
register<value_word_t>(CACHE_CAPACITY) value_word_13;
register<value_word_t>(CACHE_CAPACITY) value_word_14;
register<value_word_t>(CACHE_CAPACITY) value_word_15;

/* registers -> the @field_list(1) metadata carried by a snapshot clone */
action save_original_value() {
    bit<32> index = (bit<32>) meta.cache_idx;
    value_word_00.read(meta.original_word_00, index);
    value_word_01.read(meta.original_word_01, index);
    value_word_02.read(meta.original_word_02, index);
    value_word_03.read(meta.original_word_03, index);
    value_word_04.read(meta.original_word_04, index);
    value_word_05.read(meta.original_word_05, index);
    value_word_06.read(meta.original_word_06, index);
    value_word_07.read(meta.original_word_07, index);
    value_word_08.read(meta.original_word_08, index);
    value_word_09.read(meta.original_word_09, index);
    value_word_10.read(meta.original_word_10, index);
    value_word_11.read(meta.original_word_11, index);
    value_word_12.read(meta.original_word_12, index);
    value_word_13.read(meta.original_word_13, index);
    value_word_14.read(meta.original_word_14, index);
    value_word_15.read(meta.original_word_15, index);
}

/* hdr.value_words[i] -> registers, one action per word: the apply block calls
 * the ones whose word the parser extracted. */
action store_value_word_00() { value_word_00.write((bit<32>) meta.cache_idx, hdr.value_words[0].word); }
action store_value_word_01() { value_word_01.write((bit<32>) meta.cache_idx, hdr.value_words[1].word); }
action store_value_word_02() { value_word_02.write((bit<32>) meta.cache_idx, hdr.value_words[2].word); }
action store_value_word_03() { value_word_03.write((bit<32>) meta.cache_idx, hdr.value_words[3].word); }
action store_value_word_04() { value_word_04.write((bit<32>) meta.cache_idx, hdr.value_words[4].word); }
action store_value_word_05() { value_word_05.write((bit<32>) meta.cache_idx, hdr.value_words[5].word); }
action store_value_word_06() { value_word_06.write((bit<32>) meta.cache_idx, hdr.value_words[6].word); }
action store_value_word_07() { value_word_07.write((bit<32>) meta.cache_idx, hdr.value_words[7].word); }
action store_value_word_08() { value_word_08.write((bit<32>) meta.cache_idx, hdr.value_words[8].word); }
action store_value_word_09() { value_word_09.write((bit<32>) meta.cache_idx, hdr.value_words[9].word); }
action store_value_word_10() { value_word_10.write((bit<32>) meta.cache_idx, hdr.value_words[10].word); }
action store_value_word_11() { value_word_11.write((bit<32>) meta.cache_idx, hdr.value_words[11].word); }
action store_value_word_12() { value_word_12.write((bit<32>) meta.cache_idx, hdr.value_words[12].word); }
action store_value_word_13() { value_word_13.write((bit<32>) meta.cache_idx, hdr.value_words[13].word); }
action store_value_word_14() { value_word_14.write((bit<32>) meta.cache_idx, hdr.value_words[14].word); }
action store_value_word_15() { value_word_15.write((bit<32>) meta.cache_idx, hdr.value_words[15].word); }

/* registers -> hdr.value_words[i], one action per word: the apply block calls
 * them for i < value_words_to_load and invalidates the rest. */
action load_value_word_00() {
    hdr.value_words[0].setValid();
    value_word_00.read(hdr.value_words[0].word, (bit<32>) meta.cache_idx);
}
action load_value_word_01() {
    hdr.value_words[1].setValid();
    value_word_01.read(hdr.value_words[1].word, (bit<32>) meta.cache_idx);
}
action load_value_word_02() {
    hdr.value_words[2].setValid();
    value_word_02.read(hdr.value_words[2].word, (bit<32>) meta.cache_idx);
}
action load_value_word_03() {
    hdr.value_words[3].setValid();
    value_word_03.read(hdr.value_words[3].word, (bit<32>) meta.cache_idx);
}
action load_value_word_04() {
    hdr.value_words[4].setValid();
    value_word_04.read(hdr.value_words[4].word, (bit<32>) meta.cache_idx);
}
action load_value_word_05() {
    hdr.value_words[5].setValid();
    value_word_05.read(hdr.value_words[5].word, (bit<32>) meta.cache_idx);
}
action load_value_word_06() {
    hdr.value_words[6].setValid();
    value_word_06.read(hdr.value_words[6].word, (bit<32>) meta.cache_idx);
}
action load_value_word_07() {
    hdr.value_words[7].setValid();
    value_word_07.read(hdr.value_words[7].word, (bit<32>) meta.cache_idx);
}
action load_value_word_08() {
    hdr.value_words[8].setValid();
    value_word_08.read(hdr.value_words[8].word, (bit<32>) meta.cache_idx);
}
action load_value_word_09() {
    hdr.value_words[9].setValid();
    value_word_09.read(hdr.value_words[9].word, (bit<32>) meta.cache_idx);
}
action load_value_word_10() {
    hdr.value_words[10].setValid();
    value_word_10.read(hdr.value_words[10].word, (bit<32>) meta.cache_idx);
}
action load_value_word_11() {
    hdr.value_words[11].setValid();
    value_word_11.read(hdr.value_words[11].word, (bit<32>) meta.cache_idx);
}
action load_value_word_12() {
    hdr.value_words[12].setValid();
    value_word_12.read(hdr.value_words[12].word, (bit<32>) meta.cache_idx);
}
action load_value_word_13() {
    hdr.value_words[13].setValid();
    value_word_13.read(hdr.value_words[13].word, (bit<32>) meta.cache_idx);
}
action load_value_word_14() {
    hdr.value_words[14].setValid();
    value_word_14.read(hdr.value_words[14].word, (bit<32>) meta.cache_idx);
}
action load_value_word_15() {
    hdr.value_words[15].setValid();
    value_word_15.read(hdr.value_words[15].word, (bit<32>) meta.cache_idx);
}

/* a reply without a value: no word is emitted */
action strip_value_words() {
    hdr.value_words[0].setInvalid();
    hdr.value_words[1].setInvalid();
    hdr.value_words[2].setInvalid();
    hdr.value_words[3].setInvalid();
    hdr.value_words[4].setInvalid();
    hdr.value_words[5].setInvalid();
    hdr.value_words[6].setInvalid();
    hdr.value_words[7].setInvalid();
    hdr.value_words[8].setInvalid();
    hdr.value_words[9].setInvalid();
    hdr.value_words[10].setInvalid();
    hdr.value_words[11].setInvalid();
    hdr.value_words[12].setInvalid();
    hdr.value_words[13].setInvalid();
    hdr.value_words[14].setInvalid();
    hdr.value_words[15].setInvalid();
}

/* ======================================================================
 * Reply framing.
 * ====================================================================== */

/* The switch answers in place and back the way the request came (FarReach
 * §3.2: the cache "directly respond[s] to the client"). Hosts share one L2
 * segment, so swapping addresses suffices. */
action swap_to_reply() {
    mac_addr_t mac = hdr.ethernet.dst_addr;
    hdr.ethernet.dst_addr = hdr.ethernet.src_addr;
    hdr.ethernet.src_addr = mac;
    ipv4_addr_t ip = hdr.ipv4.dst_addr;
    hdr.ipv4.dst_addr = hdr.ipv4.src_addr;
    hdr.ipv4.src_addr = ip;
    bit<16> port = hdr.udp.dst_port;
    hdr.udp.dst_port = hdr.udp.src_port;
    hdr.udp.src_port = port;
    hdr.innet.flags = hdr.innet.flags | FLAG_FROM_SWITCH;
    standard_metadata.egress_spec = standard_metadata.ingress_port;
}

/* wire-format.md §1/§2: UDP length = 8 + 32 + extlen (0 here) + value padded
 * to 8 bytes; IPv4 total length = 20 + UDP length. MyComputeChecksum then
 * recomputes the IPv4 checksum. */
action set_lengths_from_vallen() {
    bit<16> padded_value_bytes = (hdr.innet.vallen + 7) & 0xFFF8;
    hdr.udp.length = UDP_HEADER_BYTES + INNET_HEADER_BYTES + padded_value_bytes;
    hdr.ipv4.total_len = IPV4_HEADER_BYTES + hdr.udp.length;
}

/* The switch may change op, seq, flags or the value of a key-value message;
 * encoders write UDP checksum 0 and decoders accept 0 (wire-format.md §1), so
 * 0 is always right. */
action clear_udp_checksum() {
    hdr.udp.checksum = 0;
}
