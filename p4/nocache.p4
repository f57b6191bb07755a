/*
 * nocache.p4: the no-cache baseline of FarReach §5 ("NoCache, i.e., no
 * in-switch caching"). The switch forwards every packet by IPv4 destination;
 * it never changes a key-value message. Clients and servers are the same as
 * with netcache.p4 and farreach.p4: servers see client ops (GET/PUT/DEL).
 *
 * Control-plane interface: docs/p4-programs.md#nocachep4.
 */
#include <core.p4>
#include <v1model.p4>

#include "include/defines.p4"
#include "include/sizes.p4"
#include "include/headers.p4"
#include "include/parser.p4"
#include "include/forwarding.p4"

control MyIngress(inout headers_t hdr,
                  inout local_metadata_t meta,
                  inout standard_metadata_t standard_metadata) {

    PacketValidation() validation;
    Forwarding() forwarding;
    DropAccounting() drops;

    apply {
        validation.apply(hdr, meta, standard_metadata);
        if (meta.drop_reason == DROP_NONE) {
            forwarding.apply(hdr, meta, standard_metadata);
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
