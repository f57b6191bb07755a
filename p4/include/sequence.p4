/*
 * innet P4 data planes: switch-assigned sequence numbers, shared by
 * netcache.p4 and farreach.p4.
 *
 * FarReach §3.3 "Identifying latest records": the switch gives every write a
 * sequence number in the order it serialises them, and a server stores a
 * record only if its seq is higher than the one it holds. FarReach §4.2: a
 * single global counter would overflow sooner, so "we maintain a register
 * array with 32K registers. We map the write requests of different keys into
 * different registers by hashing, and then increment the hashed register".
 * Every key always hashes to the same slot, so each key's sequence numbers
 * increase; keys sharing a slot only make each other's numbers sparser.
 *
 * Slot of a key: CRC-32 (HashAlgorithm.crc32) of the 16 key bytes, mod SEQ_SLOTS.
 *
 * Writes: the counter is incremented and the new value written into the
 * message, whose op becomes PUT_SEQ / DEL_SEQ (wire-format.md §3). Whether the
 * write is then absorbed by the cache or forwarded is the record control's
 * decision; either way it carries its number.
 *
 * Server replies: the counter is only read, into meta.seq_bound. A reply with
 * seq >= seq_bound reflects every write the switch has numbered for this key
 * (a later write would have a larger number), so only such a reply may make a
 * cached record latest/valid again. This guards against a reply overtaken by
 * a write (reordering or loss between switch and server), which the paper's
 * in-order pipeline-to-server path does not have to consider.
 */
#ifndef INNET_SEQUENCE_P4
#define INNET_SEQUENCE_P4

control SequenceAssigner(inout headers_t hdr, inout local_metadata_t meta) {

    /* seq_counter[slot] = the last sequence number assigned in that slot */
    register<seq_t>(SEQ_SLOTS) seq_counter;

    apply {
        if (meta.is_write || meta.is_server_reply) {
            bit<32> slot;
            hash(slot, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key }, SEQ_SLOTS);
            seq_t last_assigned;
            seq_counter.read(last_assigned, slot);
            if (meta.is_write) {
                seq_t assigned = last_assigned + 1;
                seq_counter.write(slot, assigned);
                hdr.innet.seq = assigned;
                if (hdr.innet.op == OP_PUT) {
                    hdr.innet.op = OP_PUT_SEQ;
                } else {
                    hdr.innet.op = OP_DEL_SEQ;
                }
            } else {
                meta.seq_bound = last_assigned;
            }
        }
    }
}

#endif /* INNET_SEQUENCE_P4 */
