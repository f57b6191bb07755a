/*
 * farreach.p4: FarReach's in-switch write-back cache (Sheng et al., ATC'23)
 * on v1model. Non-blocking admission with latest/outdated state and validity
 * (§3.2), available eviction with to-be-evicted, switch-assigned sequence
 * numbers and record embedding (§3.3), and crash-consistent snapshot support
 * through SNAPSHOT_ORIGINAL reports to the controller (§3.4).
 *
 * Control-plane interface: docs/p4-programs.md#farreachp4.
 * Mapping to Tofino (TNA) and where the paper's constraints went:
 * docs/tna-mapping.md.
 *
 * This file only wires the controls together; the order of the apply calls
 * is the order in which each reads the metadata the previous ones wrote.
 * All cache state is read and written in ingress: v1model has one ingress
 * pipeline that serialises packets, which gives every record the atomicity
 * the paper obtains from steering all requests of a key through the one
 * egress pipeline of its server (§3.2 "Atomic validity control").
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
#include "include/farreach_records.p4"
#include "include/snapshot.p4"

control MyIngress(inout headers_t hdr,
                  inout local_metadata_t meta,
                  inout standard_metadata_t standard_metadata) {

    PacketValidation() validation;
    Forwarding() forwarding;
    KvClassify() classify;
    CacheLookup() lookup;
    SequenceAssigner() sequence;
    FarReachRecords() cache;
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
                cache.apply(hdr, meta);                /* the FarReach decisions, record state */
                frequency.apply(hdr, meta);            /* CMS / cached counters, HOT flag */
                values.apply(hdr, meta);               /* value words in and out of registers */
                rewrite.apply(hdr, meta, standard_metadata); /* reply framing and lengths */
                if (meta.snapshot_report) {
                    /* §3.4 Figure 6 step (2): the original record to the
                     * controller, carried by the clone's field list */
                    clone_preserving_field_list(CloneType.I2E, CPU_CLONE_SESSION,
                                                FIELD_LIST_SNAPSHOT_ORIGINAL);
                }
            }
        }
        drops.apply(meta, standard_metadata);
    }
}

control MyEgress(inout headers_t hdr,
                 inout local_metadata_t meta,
                 inout standard_metadata_t standard_metadata) {

    SnapshotOriginalReport() snapshot_report;

    apply {
        if (standard_metadata.instance_type == PKT_INSTANCE_TYPE_INGRESS_CLONE) {
            snapshot_report.apply(hdr, meta);
        }
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
