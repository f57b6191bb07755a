/*
 * innet P4 data planes: FarReach's SNAPSHOT_ORIGINAL report (egress).
 *
 * FarReach §3.4, Figure 6 step (2): "If the switch receives the first write to
 * a cached record R during snapshot generation, it forwards the original R to
 * the controller before R is updated." Ingress (FarReachRecords) decides that
 * a change is the first one of the current snapshot epoch, copies the record
 * as it was into the @field_list(1) metadata, and clones the packet (I2E) to
 * clone session CPU_CLONE_SESSION, which the control plane points at
 * CPU_PORT. This control turns that clone into a SNAPSHOT_ORIGINAL message
 * (wire-format.md §3, op 0x23, UDP 5009) for the controller:
 *
 *   Ethernet/IPv4: from and to the switch's CPU/controller identity
 *                  (02:00:00:00:00:fe, 10.0.0.254)
 *   UDP:           5009 -> 5009, checksum 0
 *   innet:         op SNAPSHOT_ORIGINAL, status 0, flags DELETED if the
 *                  original was a tombstone, req_id and key of the packet
 *                  that changed the record, seq/vallen/value of the original.
 *
 * Every field is written here, so the result does not depend on whether the
 * target hands the clone over with the headers as received (bmv2 re-parses
 * the original packet) or as ingress left them.
 */
#ifndef INNET_SNAPSHOT_P4
#define INNET_SNAPSHOT_P4

control SnapshotOriginalReport(inout headers_t hdr, inout local_metadata_t meta) {
    apply {
        hdr.ethernet.src_addr = CONTROLLER_MAC;
        hdr.ethernet.dst_addr = CONTROLLER_MAC;
        hdr.ipv4.src_addr = CONTROLLER_IP;
        hdr.ipv4.dst_addr = CONTROLLER_IP;
        hdr.udp.src_port = UDP_PORT_KV_CONTROL;
        hdr.udp.dst_port = UDP_PORT_KV_CONTROL;
        hdr.udp.checksum = 0;

        hdr.innet.op = OP_SNAPSHOT_ORIGINAL;
        hdr.innet.status = STATUS_OK;
        hdr.innet.flags = meta.original_flags;
        hdr.innet.seq = meta.original_seq;
        hdr.innet.vallen = meta.original_vallen;
        hdr.innet.extlen = 0;

        /* original_vallen <= 128 (it was a cached record), so this fits */
        bit<8> words = (bit<8>) ((meta.original_vallen + 7) >> 3);
        if (words > 0) {
            hdr.value_words[0].setValid();
            hdr.value_words[0].word = meta.original_word_00;
        } else {
            hdr.value_words[0].setInvalid();
        }
        if (words > 1) {
            hdr.value_words[1].setValid();
            hdr.value_words[1].word = meta.original_word_01;
        } else {
            hdr.value_words[1].setInvalid();
        }
        if (words > 2) {
            hdr.value_words[2].setValid();
            hdr.value_words[2].word = meta.original_word_02;
        } else {
            hdr.value_words[2].setInvalid();
        }
        if (words > 3) {
            hdr.value_words[3].setValid();
            hdr.value_words[3].word = meta.original_word_03;
        } else {
            hdr.value_words[3].setInvalid();
        }
        if (words > 4) {
            hdr.value_words[4].setValid();
            hdr.value_words[4].word = meta.original_word_04;
        } else {
            hdr.value_words[4].setInvalid();
        }
        if (words > 5) {
            hdr.value_words[5].setValid();
            hdr.value_words[5].word = meta.original_word_05;
        } else {
            hdr.value_words[5].setInvalid();
        }
        if (words > 6) {
            hdr.value_words[6].setValid();
            hdr.value_words[6].word = meta.original_word_06;
        } else {
            hdr.value_words[6].setInvalid();
        }
        if (words > 7) {
            hdr.value_words[7].setValid();
            hdr.value_words[7].word = meta.original_word_07;
        } else {
            hdr.value_words[7].setInvalid();
        }
        if (words > 8) {
            hdr.value_words[8].setValid();
            hdr.value_words[8].word = meta.original_word_08;
        } else {
            hdr.value_words[8].setInvalid();
        }
        if (words > 9) {
            hdr.value_words[9].setValid();
            hdr.value_words[9].word = meta.original_word_09;
        } else {
            hdr.value_words[9].setInvalid();
        }
        if (words > 10) {
            hdr.value_words[10].setValid();
            hdr.value_words[10].word = meta.original_word_10;
        } else {
            hdr.value_words[10].setInvalid();
        }
        if (words > 11) {
            hdr.value_words[11].setValid();
            hdr.value_words[11].word = meta.original_word_11;
        } else {
            hdr.value_words[11].setInvalid();
        }
        if (words > 12) {
            hdr.value_words[12].setValid();
            hdr.value_words[12].word = meta.original_word_12;
        } else {
            hdr.value_words[12].setInvalid();
        }
        if (words > 13) {
            hdr.value_words[13].setValid();
            hdr.value_words[13].word = meta.original_word_13;
        } else {
            hdr.value_words[13].setInvalid();
        }
        if (words > 14) {
            hdr.value_words[14].setValid();
            hdr.value_words[14].word = meta.original_word_14;
        } else {
            hdr.value_words[14].setInvalid();
        }
        if (words > 15) {
            hdr.value_words[15].setValid();
            hdr.value_words[15].word = meta.original_word_15;
        } else {
            hdr.value_words[15].setInvalid();
        }

        bit<16> padded_value_bytes = (meta.original_vallen + 7) & 0xFFF8;
        hdr.udp.length = UDP_HEADER_BYTES + INNET_HEADER_BYTES + padded_value_bytes;
        hdr.ipv4.total_len = IPV4_HEADER_BYTES + hdr.udp.length;
        /* The IPv4 checksum is recomputed by MyComputeChecksum. */
    }
}

#endif /* INNET_SNAPSHOT_P4 */
