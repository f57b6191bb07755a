#!/usr/bin/env python3
"""Writes p4/tests/visibility.stf: one scenario walking through the rules of p4/visibility.p4
(W1-W3, M1-M3, C1, R1-R2, Z1; docs/visibility.md "The switch program").

Frames are built here from docs/visibility.md's wire format, independently of the P4 code, with the
framing helpers of gen_stf.py.

Run from anywhere: python3 p4/tests/gen_visibility_stf.py
"""
import os
import struct

from gen_stf import Stf, frame, HERE, with_udp_checksum

CLIENT, DATA_NODE, MDN, CONTROLLER = 1, 2, 3, 254
PORT_OF = {CLIENT: 1, DATA_NODE: 2, MDN: 3, CONTROLLER: 64}
CLIENT_UDP = 40000
VIS_PORT = 5011
CLONE_SESSION = 101

WRITE, WRITE_REPLY, META_ASYNC = 0x41, 0xC1, 0x42
META_UPDATE, META_UPDATE_REPLY, META_HELD = 0x43, 0xC3, 0xC4
CLEAR, CLEAR_ACK, READ, READ_REPLY = 0x45, 0xC5, 0x46, 0xC6
FROM_SWITCH, VISIBLE = 0x01, 0x08
OK = 0


def msg(op, key, index, fp, ts=0, value=b"", flags=0, status=OK, req_id=1):
    padded = value + bytes((-len(value)) % 8)
    return (struct.pack(">BBBBI16sIHH", 0xA1, op, flags, status, req_id, key, ts, len(value), 8)
            + struct.pack(">HHI", index, 0, fp) + padded)


def key(name):
    return name.encode().ljust(16, b"\0")


def from_to(src, dst, payload):
    """src -> dst; the request side uses port 5011 as destination, the reply side as source"""
    sport = VIS_PORT if src in (DATA_NODE, MDN) else CLIENT_UDP
    dport = VIS_PORT if dst in (DATA_NODE, MDN, CONTROLLER) else CLIENT_UDP
    if src == MDN and dst == CONTROLLER:
        sport = VIS_PORT
    return frame(src, dst, sport, dport, payload)


def meta_bytes(tag, n=16):
    return (tag.encode() * n)[:n]


A, B = key("alpha"), key("bravo")
INDEX, FP_A, FP_B = 7, 0x0000000A, 0x0000000B
M1, M2, M4 = meta_bytes("m1"), meta_bytes("m2"), meta_bytes("m4-longer", 21)


def main():
    s = Stf("""visibility.p4: the in-switch visibility layer (docs/visibility.md "The switch program").
Client host 1, data node host 2, metadata node host 3, controller 254 (CPU port 64).
Keys alpha and bravo share hash index 7 with fingerprints 0xA and 0xB.""")
    for h in (CLIENT, DATA_NODE, MDN, CONTROLLER):
        s.cmd("add MyIngress.ipv4_forward hdr.ipv4.dst_addr:0x0a0000%02x MyIngress.set_egress_port(port:%d)"
              % (h, PORT_OF[h]))
    s.cmd("mirroring_add %d %d" % (CLONE_SESSION, PORT_OF[MDN]))
    s.cmd("register_write MyIngress.vis_mdn_host 0 %d" % MDN)

    def write_reply(k, fp, ts, meta, flags=0):
        return from_to(DATA_NODE, CLIENT, msg(WRITE_REPLY, k, INDEX, fp, ts, meta, flags))

    s.comment("Z1: before the control plane sets vis_ready the switch handles no visibility message")
    s.packet(2, write_reply(A, FP_A, 1, M1))
    s.packet(1, from_to(CLIENT, MDN, msg(READ, A, INDEX, FP_A)))
    s.comment("... but forwards the others (a WRITE request with its application value)")
    s.packet(1, from_to(CLIENT, DATA_NODE, msg(WRITE, A, INDEX, FP_A, 0, b"v" * 200)))
    s.expect(2, from_to(CLIENT, DATA_NODE, msg(WRITE, A, INDEX, FP_A, 0, b"v" * 200)))
    s.cmd("register_write MyIngress.vis_ready 0 1")

    s.comment("W2: a clear entry and ts 1 > MaxTs 0: installed, VISIBLE, cloned to the metadata node as META_ASYNC")
    s.packet(2, write_reply(A, FP_A, 1, M1))
    s.expect(1, write_reply(A, FP_A, 1, M1, VISIBLE))
    s.expect(3, frame(DATA_NODE, MDN, VIS_PORT, VIS_PORT, msg(META_ASYNC, A, INDEX, FP_A, 1, M1)))

    s.comment("R1: a READ of alpha (same index and fingerprint) is answered by the switch")
    s.packet(1, from_to(CLIENT, MDN, msg(READ, A, INDEX, FP_A, req_id=2)))
    s.expect(1, from_to(MDN, CLIENT, msg(READ_REPLY, A, INDEX, FP_A, 1, M1, FROM_SWITCH, req_id=2)))
    s.comment("R2: bravo has another fingerprint: to the metadata node unchanged")
    s.packet(1, from_to(CLIENT, MDN, msg(READ, B, INDEX, FP_B, req_id=3)))
    s.expect(3, from_to(CLIENT, MDN, msg(READ, B, INDEX, FP_B, req_id=3)))

    s.comment("W3: bravo's reply (ts 2) finds the entry busy: passes unchanged (fallback); W1: MaxTs becomes 2")
    s.packet(2, write_reply(B, FP_B, 2, M2))
    s.expect(1, write_reply(B, FP_B, 2, M2))

    s.comment("M2: bravo's second-phase reply (ts 2 > CurTs 1) is held back: META_HELD to the metadata node")
    s.packet(3, from_to(MDN, CLIENT, msg(META_UPDATE_REPLY, B, INDEX, FP_B, 2, M2, req_id=4)))
    s.expect(3, from_to(CLIENT, MDN, msg(META_HELD, B, INDEX, FP_B, 2, M2, req_id=4)))

    s.comment("C1: a CLEAR with ts 2 != CurTs 1 clears nothing (the read still hits); acknowledged")
    s.packet(3, from_to(MDN, CONTROLLER, msg(CLEAR, A, INDEX, FP_A, 2, req_id=5)))
    s.expect(3, frame(CONTROLLER, MDN, VIS_PORT, VIS_PORT, msg(CLEAR_ACK, A, INDEX, FP_A, 2, req_id=5)))
    s.packet(1, from_to(CLIENT, MDN, msg(READ, A, INDEX, FP_A, req_id=6)))
    s.expect(1, from_to(MDN, CLIENT, msg(READ_REPLY, A, INDEX, FP_A, 1, M1, FROM_SWITCH, req_id=6)))
    s.comment("C1: ts 1 == CurTs clears; the next READ of alpha goes to the metadata node (R2)")
    s.packet(3, from_to(MDN, CONTROLLER, msg(CLEAR, A, INDEX, FP_A, 1, req_id=7)))
    s.expect(3, frame(CONTROLLER, MDN, VIS_PORT, VIS_PORT, msg(CLEAR_ACK, A, INDEX, FP_A, 1, req_id=7)))
    s.packet(1, from_to(CLIENT, MDN, msg(READ, A, INDEX, FP_A, req_id=8)))
    s.expect(3, from_to(CLIENT, MDN, msg(READ, A, INDEX, FP_A, req_id=8)))

    s.comment("M3: the re-sent second-phase reply of bravo now passes to the client")
    s.packet(3, from_to(MDN, CLIENT, msg(META_UPDATE_REPLY, B, INDEX, FP_B, 2, M2, req_id=4)))
    s.expect(1, from_to(MDN, CLIENT, msg(META_UPDATE_REPLY, B, INDEX, FP_B, 2, M2, req_id=4)))

    s.comment("W1/W2: a duplicate of bravo's reply (ts 2) finds the entry clear, but MaxTs is 2 since W3\n"
              "raised it for a reply that did not install: not installed")
    s.packet(2, write_reply(B, FP_B, 2, M2))
    s.expect(1, write_reply(B, FP_B, 2, M2))
    s.comment("W1/W2: a late reply (ts 1) finds the entry clear but ts <= MaxTs 2: not installed")
    s.packet(2, write_reply(A, FP_A, 1, M1))
    s.expect(1, write_reply(A, FP_A, 1, M1))
    s.comment("W2: metadata above 96 bytes is never installed, yet raises MaxTs to 3 (W1) ...")
    s.packet(2, write_reply(A, FP_A, 3, b"x" * 104))
    s.expect(1, write_reply(A, FP_A, 3, b"x" * 104))
    s.comment("... so a reply with ts 3 cannot install either; ts 4 installs (21 bytes: 3 words)")
    s.packet(2, write_reply(A, FP_A, 3, M1))
    s.expect(1, write_reply(A, FP_A, 3, M1))
    s.packet(2, write_reply(A, FP_A, 4, M4))
    s.expect(1, write_reply(A, FP_A, 4, M4, VISIBLE))
    s.expect(3, frame(DATA_NODE, MDN, VIS_PORT, VIS_PORT, msg(META_ASYNC, A, INDEX, FP_A, 4, M4)))
    s.packet(1, from_to(CLIENT, MDN, msg(READ, A, INDEX, FP_A, req_id=9)))
    s.expect(1, from_to(MDN, CLIENT, msg(READ_REPLY, A, INDEX, FP_A, 4, M4, FROM_SWITCH, req_id=9)))
    s.comment("M3: an older second-phase reply (ts 3 < CurTs 4) passes and clears nothing")
    s.packet(3, from_to(MDN, CLIENT, msg(META_UPDATE_REPLY, A, INDEX, FP_A, 3, M1, req_id=10)))
    s.expect(1, from_to(MDN, CLIENT, msg(META_UPDATE_REPLY, A, INDEX, FP_A, 3, M1, req_id=10)))
    s.comment("M1: a second-phase reply with ts == CurTs 4 clears the entry and passes")
    s.packet(3, from_to(MDN, CLIENT, msg(META_UPDATE_REPLY, A, INDEX, FP_A, 4, M4, req_id=11)))
    s.expect(1, from_to(MDN, CLIENT, msg(META_UPDATE_REPLY, A, INDEX, FP_A, 4, M4, req_id=11)))
    s.packet(1, from_to(CLIENT, MDN, msg(READ, A, INDEX, FP_A, req_id=12)))
    s.expect(3, from_to(CLIENT, MDN, msg(READ, A, INDEX, FP_A, req_id=12)))

    s.comment("W2 with a computed UDP checksum (as a live data node's kernel sends it): the reply (VISIBLE set)\n"
              "and its META_ASYNC clone (op, address and port rewritten) leave with checksum 0, 'not computed';\n"
              "a stale one makes the receiving kernel drop them (found on the live rack, docs/live-rack.md)")
    s.packet(2, with_udp_checksum(write_reply(A, FP_A, 5, M1)))
    s.expect(1, write_reply(A, FP_A, 5, M1, VISIBLE))
    s.expect(3, frame(DATA_NODE, MDN, VIS_PORT, VIS_PORT, msg(META_ASYNC, A, INDEX, FP_A, 5, M1)))

    s.comment("Z1 again: the control plane withdraws vis_ready (a restarted switch): reads are dropped")
    s.cmd("register_write MyIngress.vis_ready 0 0")
    s.packet(1, from_to(CLIENT, MDN, msg(READ, A, INDEX, FP_A, req_id=13)))

    with open(os.path.join(HERE, "visibility.stf"), "w") as f:
        f.write("\n".join(s.lines) + "\n")


if __name__ == "__main__":
    main()
