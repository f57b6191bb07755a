/*
 * netcache.p4: the write-through in-switch cache baseline of FarReach §5
 * ("NetCache, i.e., the in-switch cache that implements write-through
 * caching"). Reads of valid cached keys are answered by the switch; writes
 * go to the server, invalidate the cached copy, and the server's replies
 * refresh it (include/netcache_records.p4).
 *
 * Control-plane interface: docs/p4-programs.md#netcachep4.
 * This file only wires the controls together; the order of the apply calls
 * is the order in which each reads the metadata the previous ones wrote.
 */
#include <core.p4>
#include <v1model.p4>

#include "include/defines.p4"
#include "include/sizes.p4"
#include "include/headers.p4"
#include "include/parser.p4"
#include "include/forwarding.p4"
#include "include/cache_lookup.p4"
#include "include/sequence.p4"
#include "include/frequency.p4"
#include "include/value_store.p4"
#include "include/rewrite.p4"
#include "include/netcache_records.p4"

control MyIngress(inout headers_t hdr,
                  inout local_metadata_t meta,
                  inout standard_metadata_t standard_metadata) {

    PacketValidation() validation;
    Forwarding() forwarding;
    KvClassify() classify;
    CacheLookup() lookup;
    SequenceAssigner() sequence;
    NetCacheRecords() cache;
    FrequencyMonitor() frequency;
    ValueStore() values;
    MessageRewrite() rewrite;
    DropAccounting() drops;

    apply {
        validation.apply(hdr, meta, standard_metadata);
        if (meta.drop_reason == DROP_NONE) {
            forwarding.apply(hdr, meta, standard_metadata);
        }
        if (meta.drop_reason == DROP_NONE) {
            classify.apply(hdr, meta);
            if (meta.is_client_request || meta.is_server_reply) {
                lookup.apply(hdr, meta);               /* key -> cache index */
                sequence.apply(hdr, meta);             /* writes numbered; replies get seq_bound */
                cache.apply(hdr, meta);                /* the write-through decisions */
                frequency.apply(hdr, meta);            /* CMS / cached counters, HOT flag */
                values.apply(hdr, meta);               /* value words in and out of registers */
                rewrite.apply(hdr, meta, standard_metadata); /* reply framing and lengths */
            }
        }
        drops.apply(meta, standard_metadata);
    }
}

control MyEgress(inout headers_t hdr,
                 inout local_metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
