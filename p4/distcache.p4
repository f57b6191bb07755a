/*
 * distcache.p4: the DistCache data plane (Liu et al., FAST'19, §4) for every
 * switch of a two-layer leaf-spine network, on v1model. One program, three
 * roles the control plane sets in registers:
 *   - cache switch (dc_node != 0): upper layer (spine, dc_layer 1) or lower
 *     layer (a storage rack's ToR, dc_layer 2). Caches the hot keys of its
 *     partition; answers reads of valid copies; takes the two-phase coherence
 *     messages of the key's storage server (invalidate, then update, with the
 *     version and insertion-token rules of specs/distcache/DistCache.tla);
 *     stamps its load on every reply that passes it (§4.2 telemetry); counts
 *     reads of uncached keys in a Count-Min sketch and reports hot ones to
 *     its agent (§4.3 "Cache update").
 *   - client ToR (dc_routes_reads = 1): sends each read to the less loaded
 *     of the key's two candidate cache switches (power of two choices, §4.2),
 *     learning the loads from the stamps on replies.
 *   - neither: forwards by IPv4 destination (and by node for packets already
 *     routed to a cache switch).
 * A switch may have both the cache and the client-ToR role.
 *
 * Partitions: the upper layer by CRC-32 of the key into buckets
 * (upper_partition, the virtual nodes the controller remaps after a failure);
 * the lower layer by the key's storage server (server_rack: server address ->
 * its rack's ToR), i.e. the servers' own placement. Two independent hash
 * functions, as §3.2 requires.
 *
 * Control-plane interface, rules DC-1..DC-12 and procedures: docs/distcache.md.
 * Spec actions named in the comments: specs/distcache/DistCache.tla.
 *
 * Structure of MyIngress.apply, in order:
 *   1 frame validation                               (include/ingress_forwarding.p4)
 *   2 role and partition resolution (DC-1, DC-5, DC-7)
 *   3 the packet's own cache node: read (DC-3, DC-4), invalidation (DC-6),
 *     update (DC-8)
 *   4 telemetry on replies: stamp (DC-9), learn (DC-10)
 *   5 forwarding: by node (DC-2) or by IPv4 destination (DC-11)
 */
#include <core.p4>
#include <v1model.p4>

#include "include/defines.p4"
#include "include/sizes.p4"
#include "include/headers.p4"
#include "include/distcache_sizes.p4"
#include "include/distcache_headers.p4"
#include "include/distcache_parser.p4"

control MyIngress(inout distcache_headers_t hdr,
                  inout distcache_metadata_t meta,
                  inout standard_metadata_t standard_metadata) {

#include "include/ingress_forwarding.p4"

    /* ---- role (set by the controller when it brings the switch up) ----- */
    register<dc_node_t>(1) dc_node;           /* this switch's cache node number; 0: not a cache switch */
    register<bit<8>>(1) dc_layer;             /* DC_LAYER_UPPER or DC_LAYER_LOWER */
    register<bit<8>>(1) dc_routes_reads;      /* 1: a client ToR (power of two choices) */

    /* ---- partitions (every switch holds them; the controller keeps them equal) */
    register<dc_node_t>(DC_UPPER_BUCKETS) upper_partition;   /* bucket -> upper node (0: none) */

    /* ---- cache records (index x = the cache_lookup result) -------------- */
    register<bit<1>>(DC_CACHE_CAPACITY) record_valid;          /* 1: the copy answers reads */
    register<bit<1>>(DC_CACHE_CAPACITY) record_deleted;        /* 1: the record is a tombstone */
    register<dc_version_t>(DC_CACHE_CAPACITY) record_version;  /* the server's version of the value */
    register<dc_version_t>(DC_CACHE_CAPACITY) record_seen;     /* spec `seen`: highest version taken */
    register<dc_token_t>(DC_CACHE_CAPACITY) record_token;      /* spec `tok`: the insertion awaiting its fill; 0: filled */
    register<vallen_t>(DC_CACHE_CAPACITY) record_vallen;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_00;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_01;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_02;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_03;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_04;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_05;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_06;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_07;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_08;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_09;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_10;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_11;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_12;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_13;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_14;
    register<value_word_t>(DC_CACHE_CAPACITY) value_word_15;
    register<bit<32>>(DC_OUTCOMES) update_outcome;             /* updates taken / refused */
    register<dc_count_t>(DC_CACHE_CAPACITY) cached_frequency;  /* reads of each cached key routed here (eviction victims) */

    /* ---- telemetry ------------------------------------------------------ */
    register<dc_load_count_t>(1) load_count;  /* reads served as a cache node since the agent's last reset */
    register<dc_load_t>(DC_MAX_NODES) node_load;   /* client ToR: last load stamped by each node */

    /* ---- heavy-hitter detector (§4.2, §5) -------------------------------- */
    register<dc_count_t>(DC_CMS_WIDTH) dc_cms_0;
    register<dc_count_t>(DC_CMS_WIDTH) dc_cms_1;
    register<dc_count_t>(DC_CMS_WIDTH) dc_cms_2;
    register<dc_count_t>(DC_CMS_WIDTH) dc_cms_3;
    register<dc_count_t>(1) dc_hot_threshold;  /* 0: DC_DEFAULT_HOT_THRESHOLD */
    register<bit<8>>(1) dc_sample_mask;        /* counted iff (random byte & mask) == 0 */

    /* ---- tables ------------------------------------------------------------ */
    action set_cache_index(dc_idx_t index) {
        meta.cache_hit = true;
        meta.cache_idx = index;
    }

    action mark_cache_miss() {
        meta.cache_hit = false;
        meta.cache_idx = 0;
    }

    /* the agent's insertions and evictions (§4.3 "Cache update") */
    table cache_lookup {
        key = {
            hdr.innet.key: exact;
        }
        actions = {
            set_cache_index;
            mark_cache_miss;
        }
        default_action = mark_cache_miss();
        size = DC_CACHE_LOOKUP_TABLE_SIZE;
    }

    action set_lower_node(dc_node_t node) {
        meta.lower_candidate = node;
    }

    action no_lower_node() {
        meta.lower_candidate = 0;
    }

    /* storage server -> the lower-layer cache node of its keys (its rack's ToR) */
    table server_rack {
        key = {
            meta.server_addr: exact;
        }
        actions = {
            set_lower_node;
            no_lower_node;
        }
        default_action = no_lower_node();
        size = DC_SERVER_RACK_TABLE_SIZE;
    }

    /* cache node -> the port towards it ("existing routing mechanism", §4.2) */
    table node_forward {
        key = {
            hdr.dc.node: exact;
        }
        actions = {
            set_egress_port;
            drop_no_route;
        }
        default_action = drop_no_route();
        size = DC_NODE_FORWARD_TABLE_SIZE;
    }

    /* ---- helpers (straight-line) ----------------------------------------- */
    action resolve_upper() {
        bit<32> bucket;
        hash(bucket, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, DC_UPPER_SALT }, DC_UPPER_BUCKETS);
        upper_partition.read(meta.upper_candidate, bucket);
    }

    /* The request becomes its own reply, addressed back to its sender. */
    action swap_addresses() {
        mac_addr_t mac = hdr.ethernet.dst_addr;
        hdr.ethernet.dst_addr = hdr.ethernet.src_addr;
        hdr.ethernet.src_addr = mac;
        ipv4_addr_t ip = hdr.ipv4.dst_addr;
        hdr.ipv4.dst_addr = hdr.ipv4.src_addr;
        hdr.ipv4.src_addr = ip;
        bit<16> port = hdr.udp.dst_port;
        hdr.udp.dst_port = hdr.udp.src_port;
        hdr.udp.src_port = port;
        hdr.innet.op = hdr.innet.op | 0x80;
    }

    /* wire-format.md §1/§2: UDP length = 8 + 32 + 12 + value padded to 8 bytes */
    action set_lengths_from_vallen() {
        bit<16> padded = (hdr.innet.vallen + 7) & 0xFFF8;
        hdr.udp.length = UDP_HEADER_BYTES + INNET_HEADER_BYTES + DC_EXT_BYTES + padded;
        hdr.ipv4.total_len = IPV4_HEADER_BYTES + hdr.udp.length;
    }

    action store_value_words() {
        bit<32> x = (bit<32>) meta.cache_idx;
        value_word_00.write(x, hdr.value_words[0].word);
        value_word_01.write(x, hdr.value_words[1].word);
        value_word_02.write(x, hdr.value_words[2].word);
        value_word_03.write(x, hdr.value_words[3].word);
        value_word_04.write(x, hdr.value_words[4].word);
        value_word_05.write(x, hdr.value_words[5].word);
        value_word_06.write(x, hdr.value_words[6].word);
        value_word_07.write(x, hdr.value_words[7].word);
        value_word_08.write(x, hdr.value_words[8].word);
        value_word_09.write(x, hdr.value_words[9].word);
        value_word_10.write(x, hdr.value_words[10].word);
        value_word_11.write(x, hdr.value_words[11].word);
        value_word_12.write(x, hdr.value_words[12].word);
        value_word_13.write(x, hdr.value_words[13].word);
        value_word_14.write(x, hdr.value_words[14].word);
        value_word_15.write(x, hdr.value_words[15].word);
    }

    action load_value_words() {
        bit<32> x = (bit<32>) meta.cache_idx;
        value_word_00.read(hdr.value_words[0].word, x);
        value_word_01.read(hdr.value_words[1].word, x);
        value_word_02.read(hdr.value_words[2].word, x);
        value_word_03.read(hdr.value_words[3].word, x);
        value_word_04.read(hdr.value_words[4].word, x);
        value_word_05.read(hdr.value_words[5].word, x);
        value_word_06.read(hdr.value_words[6].word, x);
        value_word_07.read(hdr.value_words[7].word, x);
        value_word_08.read(hdr.value_words[8].word, x);
        value_word_09.read(hdr.value_words[9].word, x);
        value_word_10.read(hdr.value_words[10].word, x);
        value_word_11.read(hdr.value_words[11].word, x);
        value_word_12.read(hdr.value_words[12].word, x);
        value_word_13.read(hdr.value_words[13].word, x);
        value_word_14.read(hdr.value_words[14].word, x);
        value_word_15.read(hdr.value_words[15].word, x);
    }

    action count_outcome(bit<32> outcome) {
        bit<32> n;
        update_outcome.read(n, outcome);
        update_outcome.write(outcome, n + 1);
    }

    apply {
        /* ---- 1 frame validation ------------------------------------------- */
        validate_frame();

        if (meta.drop_reason == DROP_NONE && meta.is_distcache) {
            bit<8> op = hdr.innet.op;
            bool request = hdr.udp.dst_port == UDP_PORT_DISTCACHE && op < 0x80;
            bit<8> routes;
            dc_node.read(meta.my_node, 0);
            dc_layer.read(meta.my_layer, 0);
            dc_routes_reads.read(routes, 0);
            meta.routes_reads = routes == 1;

            /* ---- 2 partition resolution ----------------------------------- */
            if (request && op == OP_GET && hdr.dc.layer == DC_LAYER_NONE && meta.routes_reads) {
                /* DC-1: power of two choices between the key's two candidate
                 * cache switches by their last stamped loads (§4.2); the lower
                 * one on a tie (it is on the way to the server anyway). */
                meta.server_addr = hdr.ipv4.dst_addr;
                server_rack.apply();
                resolve_upper();
                dc_load_t load_u;
                dc_load_t load_l;
                node_load.read(load_u, (bit<32>) meta.upper_candidate);
                node_load.read(load_l, (bit<32>) meta.lower_candidate);
                if (meta.lower_candidate != 0 && (meta.upper_candidate == 0 || load_l <= load_u)) {
                    hdr.dc.layer = DC_LAYER_LOWER;
                    hdr.dc.node = meta.lower_candidate;
                } else if (meta.upper_candidate != 0) {
                    hdr.dc.layer = DC_LAYER_UPPER;
                    hdr.dc.node = meta.upper_candidate;
                }
                /* neither layer has a node for the key: it stays unrouted and
                 * goes to its server by IPv4 */
            } else if (request && (op == DC_INV || op == DC_UPD) && hdr.dc.node == 0) {
                /* DC-5, DC-7: the server names the layer; the first switch on
                 * the way finds the layer's node for the key. The server is
                 * the sender: its rack's ToR holds the lower copy. */
                if (hdr.dc.layer == DC_LAYER_UPPER) {
                    resolve_upper();
                    hdr.dc.node = meta.upper_candidate;
                } else if (hdr.dc.layer == DC_LAYER_LOWER) {
                    meta.server_addr = hdr.ipv4.src_addr;
                    server_rack.apply();
                    hdr.dc.node = meta.lower_candidate;
                }
                if (hdr.dc.node == 0) {
                    /* no node holds the key in that layer, so no copy can
                     * exist: an invalidation is acknowledged here (CacheInv
                     * of an uncached copy), an update has nothing to fill */
                    if (op == DC_INV) {
                        swap_addresses();
                    } else {
                        count_outcome(DC_OUTCOME_REFUSED);
                        meta.consumed = true;
                    }
                }
            }

            /* ---- 3 the packet's own cache node -------------------------------- */
            if (request && hdr.dc.node != 0 && hdr.dc.node == meta.my_node) {
                cache_lookup.apply();
                bit<32> x = (bit<32>) meta.cache_idx;
                bit<1> valid = 0;
                if (meta.cache_hit) {
                    record_valid.read(valid, x);
                }
                if (op == OP_GET) {
                    dc_load_count_t served;
                    load_count.read(served, 0);
                    load_count.write(0, served + 1);
                    if (meta.cache_hit) {
                        /* the agent evicts the cached key read least (§4.3) */
                        dc_count_t reads;
                        cached_frequency.read(reads, x);
                        cached_frequency.write(x, reads + 1);
                    }
                    if (meta.cache_hit && valid == 1) {
                        /* DC-3: cache hit (ClientReadHit) */
                        bit<1> deleted;
                        record_deleted.read(deleted, x);
                        record_version.read(hdr.innet.seq, x);
                        swap_addresses();
                        hdr.innet.flags = hdr.innet.flags | FLAG_FROM_SWITCH;
                        hdr.dc.layer = meta.my_layer;
                        if (deleted == 1) {
                            hdr.innet.status = STATUS_NOT_FOUND;
                            hdr.innet.vallen = 0;
                        } else {
                            hdr.innet.status = STATUS_OK;
                            record_vallen.read(hdr.innet.vallen, x);
                        }
                        bit<16> words = (hdr.innet.vallen + 7) >> 3;
                        /* a header stack element is emitted iff it is valid */
                        if (words > 0) { hdr.value_words[0].setValid(); } else { hdr.value_words[0].setInvalid(); }
                        if (words > 1) { hdr.value_words[1].setValid(); } else { hdr.value_words[1].setInvalid(); }
                        if (words > 2) { hdr.value_words[2].setValid(); } else { hdr.value_words[2].setInvalid(); }
                        if (words > 3) { hdr.value_words[3].setValid(); } else { hdr.value_words[3].setInvalid(); }
                        if (words > 4) { hdr.value_words[4].setValid(); } else { hdr.value_words[4].setInvalid(); }
                        if (words > 5) { hdr.value_words[5].setValid(); } else { hdr.value_words[5].setInvalid(); }
                        if (words > 6) { hdr.value_words[6].setValid(); } else { hdr.value_words[6].setInvalid(); }
                        if (words > 7) { hdr.value_words[7].setValid(); } else { hdr.value_words[7].setInvalid(); }
                        if (words > 8) { hdr.value_words[8].setValid(); } else { hdr.value_words[8].setInvalid(); }
                        if (words > 9) { hdr.value_words[9].setValid(); } else { hdr.value_words[9].setInvalid(); }
                        if (words > 10) { hdr.value_words[10].setValid(); } else { hdr.value_words[10].setInvalid(); }
                        if (words > 11) { hdr.value_words[11].setValid(); } else { hdr.value_words[11].setInvalid(); }
                        if (words > 12) { hdr.value_words[12].setValid(); } else { hdr.value_words[12].setInvalid(); }
                        if (words > 13) { hdr.value_words[13].setValid(); } else { hdr.value_words[13].setInvalid(); }
                        if (words > 14) { hdr.value_words[14].setValid(); } else { hdr.value_words[14].setInvalid(); }
                        if (words > 15) { hdr.value_words[15].setValid(); } else { hdr.value_words[15].setInvalid(); }
                        load_value_words();
                        set_lengths_from_vallen();
                    } else {
                        /* DC-4: cache miss (ClientReadMiss): on to the server by
                         * IPv4, no detour (§4.2); node 0 marks it routed and missed */
                        hdr.dc.node = 0;
                        if (!meta.cache_hit) {
                            /* heavy-hitter detector over uncached keys of my partition */
                            bit<8> mask;
                            dc_sample_mask.read(mask, 0);
                            bit<8> draw = 0;
                            if (mask != 0) {
                                random(draw, (bit<8>) 0, (bit<8>) 255);
                            }
                            if ((draw & mask) == 0) {
                                bit<32> i0;
                                bit<32> i1;
                                bit<32> i2;
                                bit<32> i3;
                                hash(i0, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, 8w0x60 }, DC_CMS_WIDTH);
                                hash(i1, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, 8w0x61 }, DC_CMS_WIDTH);
                                hash(i2, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, 8w0x62 }, DC_CMS_WIDTH);
                                hash(i3, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, 8w0x63 }, DC_CMS_WIDTH);
                                dc_count_t c0;
                                dc_count_t c1;
                                dc_count_t c2;
                                dc_count_t c3;
                                dc_cms_0.read(c0, i0);
                                dc_cms_1.read(c1, i1);
                                dc_cms_2.read(c2, i2);
                                dc_cms_3.read(c3, i3);
                                c0 = c0 + 1;
                                c1 = c1 + 1;
                                c2 = c2 + 1;
                                c3 = c3 + 1;
                                dc_cms_0.write(i0, c0);
                                dc_cms_1.write(i1, c1);
                                dc_cms_2.write(i2, c2);
                                dc_cms_3.write(i3, c3);
                                dc_count_t m = c0;
                                if (c1 < m) { m = c1; }
                                if (c2 < m) { m = c2; }
                                if (c3 < m) { m = c3; }
                                dc_count_t threshold;
                                dc_hot_threshold.read(threshold, 0);
                                if (threshold == 0) { threshold = DC_DEFAULT_HOT_THRESHOLD; }
                                /* the estimate grows by at most one per counted read:
                                 * "==" reports each key once per counter reset */
                                if (m == threshold) {
                                    meta.report_node = meta.my_node;
                                    meta.report_layer = meta.my_layer;
                                    clone_preserving_field_list(CloneType.I2E, DC_CPU_CLONE_SESSION, 1);
                                }
                            }
                        }
                    }
                } else if (op == DC_INV) {
                    /* DC-6: phase 1 at this copy (CacheInv): invalidate and
                     * remember the version if cached; acknowledge either way */
                    if (meta.cache_hit) {
                        dc_version_t seen;
                        record_seen.read(seen, x);
                        if (hdr.innet.seq > seen) {
                            record_seen.write(x, hdr.innet.seq);
                        }
                        record_valid.write(x, 0);
                    }
                    swap_addresses();
                } else if (op == DC_UPD) {
                    /* DC-8: phase 2 (token 0) or an insertion's fill
                     * (CacheUpdate / CacheUpdateRefused). Taken only by a cached
                     * copy, with a version at least every version it has seen
                     * (rule 1, versions) and the token it waits for (rule 2,
                     * insertion tokens: its own fill first, then phase 2 only). */
                    dc_version_t seen = 0;
                    dc_token_t waiting = 0;
                    if (meta.cache_hit) {
                        record_seen.read(seen, x);
                        record_token.read(waiting, x);
                    }
                    if (meta.cache_hit && meta.value_parsed
                        && hdr.innet.seq >= seen && hdr.dc.token == waiting) {
                        record_valid.write(x, 1);
                        record_version.write(x, hdr.innet.seq);
                        record_seen.write(x, hdr.innet.seq);
                        record_token.write(x, 0);
                        record_deleted.write(x, (hdr.innet.flags & FLAG_DELETED) == 0 ? (bit<1>) 0 : (bit<1>) 1);
                        record_vallen.write(x, hdr.innet.vallen);
                        store_value_words();
                        count_outcome(DC_OUTCOME_TAKEN);
                    } else {
                        count_outcome(DC_OUTCOME_REFUSED);
                    }
                    meta.consumed = true;
                }
            }

            /* ---- 4 telemetry on replies to client operations (§4.2) ------------ */
            bit<8> reply_op = hdr.innet.op;
            if (reply_op == OP_GET_REPLY || reply_op == OP_PUT_REPLY || reply_op == OP_DEL_REPLY) {
                if (meta.my_node != 0) {
                    /* DC-9: a reply passing a cache switch carries its load */
                    dc_load_count_t served;
                    load_count.read(served, 0);
                    dc_load_t stamp = served > DC_LOAD_SATURATED ? (dc_load_t) DC_LOAD_SATURATED : (dc_load_t) served;
                    if (meta.my_layer == DC_LAYER_UPPER) {
                        hdr.dc.upper_node = meta.my_node;
                        hdr.dc.upper_load = stamp;
                    } else if (meta.my_layer == DC_LAYER_LOWER) {
                        hdr.dc.lower_node = meta.my_node;
                        hdr.dc.lower_load = stamp;
                    }
                }
                if (meta.routes_reads) {
                    /* DC-10: the client ToR learns the stamped loads */
                    if (hdr.dc.upper_node != 0) {
                        node_load.write((bit<32>) hdr.dc.upper_node, hdr.dc.upper_load);
                    }
                    if (hdr.dc.lower_node != 0) {
                        node_load.write((bit<32>) hdr.dc.lower_node, hdr.dc.lower_load);
                    }
                }
            }

            /* ---- 5 forwarding decision --------------------------------------- */
            if (meta.consumed) {
                /* an update ends at its copy (no acknowledgement in the protocol) */
                mark_to_drop(standard_metadata);
            } else if ((hdr.innet.op == OP_GET || hdr.innet.op == DC_INV || hdr.innet.op == DC_UPD)
                       && hdr.dc.node != 0 && hdr.dc.node != meta.my_node) {
                /* DC-2: a read or coherence message routed to another cache switch. FETCH and
                 * HOT name a node too, but are addressed to a host (DC-12). */
                meta.route_to_node = true;
            }
            hdr.udp.checksum = 0;
        }

        /* DC-11: everything else, replies and missed reads included, by IPv4 */
        if (meta.drop_reason == DROP_NONE && meta.route_to_node) {
            node_forward.apply();
        } else if (meta.drop_reason == DROP_NONE && !meta.consumed) {
            ipv4_forward.apply();
        }

        if (meta.drop_reason != DROP_NONE) {
            drop_with_reason();
        }
    }
}

/*
 * Egress: only hot-key report clones are processed (§4.3): the clone of a
 * read of an uncached key whose estimate reached the threshold becomes a
 * DC_HOT packet to the switch's agent, naming this switch's node and layer.
 */
control MyEgress(inout distcache_headers_t hdr,
                 inout distcache_metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.instance_type == PKT_INSTANCE_TYPE_INGRESS_CLONE && hdr.dc.isValid()) {
            hdr.innet.op = DC_HOT;
            hdr.dc.node = meta.report_node;
            hdr.dc.layer = meta.report_layer;
            hdr.ethernet.dst_addr = CONTROLLER_MAC;
            hdr.ipv4.dst_addr = CONTROLLER_IP;
            hdr.udp.dst_port = UDP_PORT_DISTCACHE;
            hdr.udp.src_port = UDP_PORT_DISTCACHE;
        }
    }
}

V1Switch(DistCacheParser(), DistCacheVerifyChecksum(), MyIngress(), MyEgress(), DistCacheComputeChecksum(),
         DistCacheDeparser()) main;
