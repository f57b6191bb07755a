#!/usr/bin/env python3
"""Writes p4/tests/pegasus.stf: the packet tests of p4/pegasus.p4.

Expected bytes are built here from docs/pegasus.md (wire format and rules P-0..P-22, cited in the
comments) and docs/wire-format.md, independently of the P4 code; the framing helpers are
gen_stf.py's. Detector choices are computed with zlib's CRC-32, which is v1model's crc32.

Run from anywhere: python3 p4/tests/gen_pegasus_stf.py
"""
import struct
import zlib

from gen_stf import Stf, ip, mac, frame, key, hexs, with_udp_checksum  # noqa: F401  (shared framing)

# rack: servers h1..h3 are server indices 0..2 on ports 1..3; the client h10 on port 10
SERVERS = [1, 2, 3]
CLIENT = 10
CONTROLLER = 254
PORT_OF = {1: 1, 2: 2, 3: 3, 10: 10, 254: 64}
PEG_PORT = 5010
CLIENT_UDP = 40000
CLONE_SESSION = 100

READ, WRITE, DELETE, VIRTUAL_WRITE, REPLICATE = 0x01, 0x02, 0x03, 0x04, 0x05
READ_REPLY, WRITE_REPLY, REPLICATE_REPLY = 0x81, 0x82, 0x85
ADD_KEY, MARK_REMOVE, ADD_KEY_REPLY, MARK_REMOVE_REPLY = 0x30, 0x31, 0xB0, 0xB1
HOT_KEY, KEY_REMOVED = 0x32, 0x33
DETECTOR = 0x01
COMPLETED_GIVEN = 0x02
CONTROLLER_READ = 0x04
OK, NOT_FOUND = 0, 1


def peg(op, k, req_id, seq=0, value=b"", fwd=0, load=0, server=0, pflags=0, status=0, extlen=8):
    """innet header with the 8-byte Pegasus extension, then the padded value"""
    padded = value + bytes((-len(value)) % 8)
    head = struct.pack(">BBBBI16sIHH", 0xA1, op, 0, status, req_id, k, seq, len(value), extlen)
    return head + struct.pack(">IHBB", fwd, load, server, pflags)[:extlen] + padded


def to_server(src, dst, msg):
    return frame(src, dst, CLIENT_UDP, PEG_PORT, msg)


def from_server(src, dst, msg):
    return frame(src, dst, PEG_PORT, CLIENT_UDP, msg)


def rewritten(data, dst):
    """the request with its destination rewritten to server host dst (address rewrite table)"""
    eth_ip = bytearray(data)
    eth_ip[0:6] = mac(dst)
    hdr = bytearray(eth_ip[14:34])
    hdr[16:20] = ip(dst)
    hdr[10:12] = b"\0\0"
    total = 0
    for i in range(0, 20, 2):
        total += (hdr[i] << 8) | hdr[i + 1]
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    hdr[10:12] = struct.pack(">H", (~total) & 0xFFFF)
    eth_ip[14:34] = hdr
    return bytes(eth_ip)


def control(op, k, server=0, seq=0, pflags=0):
    return frame(CONTROLLER, CONTROLLER, CLIENT_UDP, PEG_PORT, peg(op, k, 1, seq=seq, server=server, pflags=pflags))


def control_reply(op, k, seq, server=0, status=OK, pflags=0):
    return frame(CONTROLLER, CONTROLLER, PEG_PORT, CLIENT_UDP,
                 peg(op, k, 1, seq=seq, server=server, status=status, pflags=pflags))


def report(data, op):
    """the clone a request or reply becomes in egress: op, controller MAC/IP, both ports 5010"""
    b = bytearray(rewritten(data, CONTROLLER))
    b[0:6] = mac(CONTROLLER)
    b[34:36] = struct.pack(">H", PEG_PORT)
    b[36:38] = struct.pack(">H", PEG_PORT)
    b[43] = op
    return bytes(b)


def detector(req_id, n):
    return zlib.crc32(ip(CLIENT) + struct.pack(">I", req_id)) % n


def pegasus():
    A, B, C = key("alpha"), key("bravo"), key("charlie")
    t = Stf("pegasus.p4: the coherence directory (docs/pegasus.md \"P4 rules\"). Servers h1-h3 are\n"
            "indices 0-2; 'alpha' has directory slot 5 with home h1 (index 0); 'bravo', 'charlie' unreplicated.")
    t.lines = [l.replace("gen_stf.py", "gen_pegasus_stf.py") for l in t.lines]
    for h in SERVERS + [CLIENT, CONTROLLER]:
        t.cmd("add MyIngress.ipv4_forward hdr.ipv4.dst_addr:0x%s MyIngress.set_egress_port(port:%d)"
              % (ip(h).hex(), PORT_OF[h]))
    for i, h in enumerate(SERVERS):
        t.cmd("add MyIngress.server_address meta.dest_server:%d MyIngress.set_server_address(ip:0x%s, mac:0x%s)"
              % (i, ip(h).hex(), mac(h).hex()))
    t.reg("server_count", 0, 3)

    t.comment("P-0: a fresh switch is closed: client requests are dropped until the controller opens it")
    t.packet(10, to_server(CLIENT, 2, peg(READ, B, 99)))
    t.cmd("check_register MyIngress.pegasus_drop_count(4) == 1")
    t.reg("switch_open", 0, 1)
    t.cmd("mirroring_add %d %d" % (CLONE_SESSION, PORT_OF[CONTROLLER]))
    t.cmd("add MyIngress.rkeys hdr.innet.key:0x%s MyIngress.set_dir_index(index:5)" % A.hex())

    t.comment("P-1: a write of an unreplicated key is stamped (ver_next 1) and goes home as the detector")
    w = peg(WRITE, B, 1, value=b"b1")
    t.packet(10, to_server(CLIENT, 2, w))
    t.expect(2, to_server(CLIENT, 2, peg(WRITE, B, 1, seq=1, value=b"b1", pflags=DETECTOR)))

    t.comment("P-2: a key whose rkeys entry is installed but not activated reads from home")
    r = to_server(CLIENT, 1, peg(READ, A, 2))
    t.packet(10, r)
    t.expect(1, r)

    t.comment("P-3: ADD_KEY (packet-out): rset = {home}, ver_completed = ver_next - 1 = 1, answered to the CPU port")
    t.packet(64, control(ADD_KEY, A, server=1))
    t.expect(64, control_reply(ADD_KEY_REPLY, A, 1, server=1))
    t.cmd("check_register MyIngress.ver_completed(5) == 1")
    t.cmd("check_register MyIngress.rset_bitmap(5) == 1")
    t.cmd("check_register MyIngress.key_state(5) == 1")

    t.comment("P-4: a write of a replicated key: version 2, to the detector chosen by the request id,\n"
              "with the next rep_factor - 1 servers in fwd (rep_factor 2)")
    t.reg("rep_factor", 5, 2)
    rid = 77
    det = detector(rid, 3)
    other = (det + 1) % 3
    w = to_server(CLIENT, 1, peg(WRITE, A, rid, value=b"a2"))
    t.packet(10, w)
    t.expect(SERVERS[det], rewritten(to_server(CLIENT, 1, peg(WRITE, A, rid, seq=2, value=b"a2", fwd=1 << other,
                                                             server=det + 1, pflags=DETECTOR)), SERVERS[det]))
    t.cmd("check_register MyIngress.write_count(5) == 1")

    t.comment("P-5: Algorithm 2, higher version: the detector's WRITE_REPLY (v 2 > 1) resets rset to it;\n"
              "its load (7) is recorded; the reply goes on to the client")
    rep = from_server(SERVERS[det], CLIENT, peg(WRITE_REPLY, A, rid, seq=2, load=7, server=det + 1))
    t.packet(SERVERS[det], rep)
    t.expect(10, rep)
    t.cmd("check_register MyIngress.ver_completed(5) == 2")
    t.cmd("check_register MyIngress.rset_bitmap(5) == %d" % (1 << det))
    t.cmd("check_register MyIngress.server_load(%d) == 7" % det)

    t.comment("P-6: Algorithm 2, equal version: the replica's REPLICATE_REPLY adds it (port 5010 to the\n"
              "detector's 5010, as servers answer a REPLICATE; the switch used to pass such a reply by)")
    rep = frame(SERVERS[other], SERVERS[det], PEG_PORT, PEG_PORT, peg(REPLICATE_REPLY, A, rid, seq=2, server=other + 1))
    t.packet(SERVERS[other], rep)
    t.expect(SERVERS[det], rep)
    t.cmd("check_register MyIngress.rset_bitmap(5) == %d" % ((1 << det) | (1 << other)))
    t.cmd("check_register MyIngress.rset_size(5) == 2")

    t.comment("P-7: a lower version (a late reply from home, v 1) changes nothing")
    rep = from_server(1, CLIENT, peg(READ_REPLY, A, 3, seq=1, server=1))
    t.packet(1, rep)
    t.expect(10, rep)
    t.cmd("check_register MyIngress.rset_size(5) == 2")

    t.comment("P-8: reads: of the next two members in round-robin order the less loaded one (load 7 vs 0):\n"
              "twice the replica, never the loaded detector")
    for rq in (4, 5):
        req = peg(READ, A, rq)
        t.packet(10, to_server(CLIENT, 1, req))
        t.expect(SERVERS[other], rewritten(to_server(CLIENT, 1, peg(READ, A, rq, server=other + 1)), SERVERS[other]))
    t.cmd("check_register MyIngress.read_count(5) == 2")

    t.comment("P-9: a reply no server vouches for (server 0, a duplicate answered from a migrated table entry)\n"
              "above ver_completed is dropped; at or below it, it is forwarded")
    t.packet(2, from_server(2, CLIENT, peg(WRITE_REPLY, A, 6, seq=9, server=0)))
    t.cmd("check_register MyIngress.pegasus_drop_count(1) == 1")
    rep = from_server(2, CLIENT, peg(WRITE_REPLY, A, 6, seq=2, server=0))
    t.packet(2, rep)
    t.expect(10, rep)

    t.comment("P-10: MARK_REMOVE (packet-out): the mark is ver_next = 3")
    t.packet(64, control(MARK_REMOVE, A))
    t.expect(64, control_reply(MARK_REMOVE_REPLY, A, 3))
    t.cmd("check_register MyIngress.key_state(5) == 2")

    t.comment("P-11: a marked key's write goes home (no rewrite), version 3; reads still use rset")
    w = peg(WRITE, A, 8, value=b"a3")
    t.packet(10, to_server(CLIENT, 1, w))
    t.expect(1, to_server(CLIENT, 1, peg(WRITE, A, 8, seq=3, value=b"a3", pflags=DETECTOR)))

    t.comment("P-12: home's WRITE_REPLY with v 3 >= mark removes the key and reports KEY_REMOVED to the CPU port")
    rep = from_server(1, CLIENT, peg(WRITE_REPLY, A, 8, seq=3, server=1))
    t.packet(1, rep)
    t.expect(10, rep)
    t.expect(64, report(rep, KEY_REMOVED))
    t.cmd("check_register MyIngress.key_state(5) == 0")

    t.comment("P-13: after removal the key reads from home again")
    r = to_server(CLIENT, 1, peg(READ, A, 9))
    t.packet(10, r)
    t.expect(1, r)

    t.comment("P-14: writes of a key whose writes are paused (table migration, S6.4) are dropped")
    t.reg("write_paused", 5, 1)
    t.packet(10, to_server(CLIENT, 1, peg(WRITE, A, 10, value=b"x")))
    t.cmd("check_register MyIngress.pegasus_drop_count(2) == 1")
    t.reg("write_paused", 5, 0)

    t.comment("P-15: hot-key detection: with threshold 2 the second request of 'charlie' is cloned to the\n"
              "CPU port as HOT_KEY; the request itself goes on")
    t.reg("peg_hot_threshold", 0, 2)
    for rq in (11, 12):
        r = to_server(CLIENT, 3, peg(READ, C, rq))
        t.packet(10, r)
        t.expect(3, r)
    t.expect(64, report(to_server(CLIENT, 3, peg(READ, C, 12)), HOT_KEY))

    t.comment("P-16: S7 chain: a write an upstream switch stamped (v 100) keeps its version and raises\n"
              "ver_next; the next fresh write gets 101")
    chained = to_server(CLIENT, 2, peg(WRITE, B, 13, seq=100, value=b"c"))
    t.packet(10, chained)
    t.expect(2, to_server(CLIENT, 2, peg(WRITE, B, 13, seq=100, value=b"c", pflags=DETECTOR)))
    t.comment("(writes count in the sketch too: this is 'bravo's second request, so it is reported hot;\n"
              "the clone carries the request as it arrived, as bmv2's ingress-to-egress clone does)")
    t.expect(64, report(chained, HOT_KEY))
    t.packet(10, to_server(CLIENT, 2, peg(WRITE, B, 14, value=b"d")))
    t.expect(2, to_server(CLIENT, 2, peg(WRITE, B, 14, seq=101, value=b"d", pflags=DETECTOR)))

    t.comment("P-17: control ops only from the CPU port; an innet header without the extension is relayed")
    t.packet(10, control(MARK_REMOVE, A))
    t.cmd("check_register MyIngress.pegasus_drop_count(3) == 1")
    odd = to_server(CLIENT, 2, peg(WRITE, B, 15, extlen=0))
    t.packet(10, odd)
    t.expect(2, odd)

    t.comment("P-18: a request with a computed UDP checksum (as a live host's kernel sends it) leaves with\n"
              "checksum 0 ('not computed'): stamping changed the bytes it covered, and a stale checksum makes\n"
              "the receiving kernel drop the datagram (found on the live rack, docs/live-rack.md)")
    t.packet(10, with_udp_checksum(to_server(CLIENT, 2, peg(WRITE, B, 16, value=b"e"))))
    t.expect(2, to_server(CLIENT, 2, peg(WRITE, B, 16, seq=102, value=b"e", pflags=DETECTOR)))

    t.comment("P-19: S7 rack gate: with rack_gate on and h1, h2 listed in rack_servers, h3 stands for a server\n"
              "of another rack. A write passed down the chain to it, and an unstamped request to it, are relayed\n"
              "untouched (no stamping, no detector flag); a reply from it with no server that Algorithm 2 would\n"
              "drop as unvouched (P-9) is relayed too; a request to h2 is still this rack's (ver_next 103)")
    t.reg("rack_gate", 0, 1)
    for h in (1, 2):
        t.cmd("add MyIngress.rack_servers meta.rack_peer:0x%s MyIngress.rack_member()" % ip(h).hex())
    passing = frame(1, 3, PEG_PORT, PEG_PORT, peg(WRITE, A, 17, seq=100, value=b"f"))
    t.packet(1, passing)
    t.expect(3, passing)
    unstamped = to_server(CLIENT, 3, peg(WRITE, B, 18, value=b"g"))
    t.packet(10, unstamped)
    t.expect(3, unstamped)
    outsider_reply = from_server(3, CLIENT, peg(READ_REPLY, A, 19, seq=900, value=b"h"))
    t.packet(3, outsider_reply)
    t.expect(10, outsider_reply)
    t.packet(10, to_server(CLIENT, 2, peg(WRITE, B, 20, value=b"i")))
    t.expect(2, to_server(CLIENT, 2, peg(WRITE, B, 20, seq=103, value=b"i", pflags=DETECTOR)))

    t.comment("P-20: S7, a chain's tail: ADD_KEY flagged COMPLETED_GIVEN takes ver_completed from the packet (home's\n"
              "newest version, 7), not ver_next - 1 (103): this switch's ver_next also counts the keys it heads")
    t.cmd("add MyIngress.rkeys hdr.innet.key:0x%s MyIngress.set_dir_index(index:6)" % C.hex())
    t.packet(64, control(ADD_KEY, C, server=3, seq=7, pflags=COMPLETED_GIVEN))
    t.expect(64, control_reply(ADD_KEY_REPLY, C, 7, server=3, pflags=COMPLETED_GIVEN))
    t.cmd("check_register MyIngress.ver_completed(6) == 7")
    t.cmd("check_register MyIngress.rset_bitmap(6) == 4")

    t.comment("P-21: issue 16, the path of the controller's removal rewrite (docs/pegasus.md \"Ending a stuck\n"
              "removal\"). 'alpha' is added again (ver_completed = ver_next - 1 = 103) and marked (mark = ver_next\n"
              "= 104); the controller pauses its writes. A client's write is dropped (P-14); the controller's write\n"
              "of the newest copy, from the CPU port, passes the pause, is stamped 104 and goes home (h1) as the\n"
              "detector. The controller's read from the CPU port goes to h2, the server it names, although h2 is\n"
              "not in rset = {h1}; a client's read addressed to h2 goes to h1. Home's reply to the rewrite\n"
              "(104 >= mark) ends the removal (P-12): the reply and the KEY_REMOVED report go to the CPU port")
    t.packet(64, control(ADD_KEY, A, server=1))
    t.expect(64, control_reply(ADD_KEY_REPLY, A, 103, server=1))
    t.packet(64, control(MARK_REMOVE, A))
    t.expect(64, control_reply(MARK_REMOVE_REPLY, A, 104))
    t.reg("write_paused", 5, 1)
    t.packet(10, to_server(CLIENT, 1, peg(WRITE, A, 21, value=b"late")))
    t.cmd("check_register MyIngress.pegasus_drop_count(2) == 2")
    ctl_read = frame(CONTROLLER, 2, CLIENT_UDP, PEG_PORT, peg(READ, A, 22, pflags=CONTROLLER_READ))
    t.packet(64, ctl_read)
    t.expect(2, ctl_read)
    t.comment("P-22: h2's answer to the controller's read (flagged CONTROLLER_READ) holds version 103 =\n"
              "ver_completed; Algorithm 2 would add h2 to rset, but the answer goes to the CPU port with the\n"
              "directory unchanged (rset = {h1}): the spec's RemovalRewrite reads without a message the switch sees")
    ctl_answer = frame(2, CONTROLLER, PEG_PORT, CLIENT_UDP,
                       peg(READ_REPLY, A, 22, seq=103, value=b"a2", server=2, pflags=CONTROLLER_READ))
    t.packet(2, ctl_answer)
    t.expect(64, ctl_answer)
    t.cmd("check_register MyIngress.rset_bitmap(5) == 1")
    t.cmd("check_register MyIngress.ver_completed(5) == 103")
    t.packet(10, to_server(CLIENT, 2, peg(READ, A, 23)))
    t.expect(1, rewritten(to_server(CLIENT, 2, peg(READ, A, 23, server=1)), 1))
    t.packet(64, frame(CONTROLLER, 1, CLIENT_UDP, PEG_PORT, peg(WRITE, A, 24, value=b"a3")))
    t.expect(1, frame(CONTROLLER, 1, CLIENT_UDP, PEG_PORT, peg(WRITE, A, 24, seq=104, value=b"a3", pflags=DETECTOR)))
    t.cmd("check_register MyIngress.ver_next(0) == 105")
    rep = frame(1, CONTROLLER, PEG_PORT, CLIENT_UDP, peg(WRITE_REPLY, A, 24, seq=104, server=1))
    t.packet(1, rep)
    t.expect(64, rep)
    t.expect(64, report(rep, KEY_REMOVED))
    t.cmd("check_register MyIngress.key_state(5) == 0")
    t.reg("write_paused", 5, 0)
    t.write("pegasus.stf")


if __name__ == "__main__":
    pegasus()
