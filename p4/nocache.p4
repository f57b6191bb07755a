/*
 * nocache.p4: the no-cache baseline of FarReach §5 ("NoCache, i.e., no
 * in-switch caching"). The switch forwards every packet by IPv4 destination
 * and never changes a key-value message: servers see the client ops
 * (GET/PUT/DEL) exactly as sent.
 *
 * Control-plane interface: docs/p4-programs.md, section nocache.p4.
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

    apply {
        validate_frame();
        if (meta.drop_reason == DROP_NONE) {
            ipv4_forward.apply();
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
