#!/usr/bin/env python3
"""Writes p4/tests/distcache.stf: the packet tests of p4/distcache.p4.

Expected bytes are built here from docs/distcache.md (wire format, rules DC-1..DC-12, cited in the
comments) and docs/wire-format.md, independently of the P4 code; the framing helpers are gen_stf.py's.
Upper-layer buckets are computed with zlib's CRC-32, which is v1model's crc32 (docs/p4-programs.md §2.4).

One switch plays each role in turn (the roles are registers): first a client rack's ToR (power of two
choices, load learning), then a lower-layer cache switch (reads, two-phase coherence with versions and
insertion tokens, hot-key reports, telemetry), then an upper-layer one.

Run from anywhere: python3 p4/tests/gen_distcache_stf.py
"""
import struct
import zlib

from gen_stf import Stf, ip, mac, frame, key, hexs, word  # noqa: F401  (shared framing)

# hosts: servers h1, h2 on ports 1, 2; the client h10 on port 10; the agent/controller on 64.
# Fabric: cache node 5 (a spine) behind port 20, cache node 7 (a leaf) behind port 21.
S1, S2, CLIENT, CONTROLLER = 1, 2, 10, 254
PORT_OF = {S1: 1, S2: 2, CLIENT: 10, CONTROLLER: 64}
NODE_PORT = {5: 20, 7: 21}
DC_PORT = 5012
CLIENT_UDP = 40000
CLONE_SESSION = 100

GET, PUT, GET_REPLY, PUT_REPLY = 0x01, 0x02, 0x81, 0x82
INV, UPD, FETCH, HOT, INV_ACK = 0x31, 0x32, 0x33, 0x34, 0xB1
FROM_SWITCH, DELETED = 0x01, 0x02
OK, NOT_FOUND = 0, 1
NONE, UPPER, LOWER = 0, 1, 2
UPPER_BUCKETS = 1024
UPPER_SALT = 0x2545F491
DROP_NO_ROUTE = 5
TAKEN, REFUSED = 0, 1


def dc(op, k, req_id=1, seq=0, value=b"", flags=0, status=0, layer=0, node=0, upper_node=0, lower_node=0,
       upper_load=0, lower_load=0, token=0, vallen=None):
    """innet header with the 12-byte DistCache extension, then the value padded to 8 bytes"""
    if vallen is None:
        vallen = len(value)
    padded = value + bytes((-len(value)) % 8)
    head = struct.pack(">BBBBI16sIHH", 0xA1, op, flags, status, req_id, k, seq, vallen, 12)
    ext = struct.pack(">BBBBHHI", layer, node, upper_node, lower_node, upper_load, lower_load, token)
    return head + ext + padded


def from_client(server, msg):
    return frame(CLIENT, server, CLIENT_UDP, DC_PORT, msg)


def to_client(server, msg):
    return frame(server, CLIENT, DC_PORT, CLIENT_UDP, msg)


def from_server(server, msg):
    """coherence messages: server -> 10.0.0.254 ("the switch"), 5012 -> 5012"""
    return frame(server, CONTROLLER, DC_PORT, DC_PORT, msg)


def to_server(server, msg):
    return frame(CONTROLLER, server, DC_PORT, DC_PORT, msg)


def hot_report(get_frame, node, layer):
    """the clone of a read: op HOT, node and layer of the reporting switch, controller MAC/IP, ports 5012"""
    b = bytearray(get_frame)
    b[0:6] = mac(CONTROLLER)
    hdr = bytearray(b[14:34])
    hdr[16:20] = ip(CONTROLLER)
    hdr[10:12] = b"\0\0"
    total = 0
    for i in range(0, 20, 2):
        total += (hdr[i] << 8) | hdr[i + 1]
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    hdr[10:12] = struct.pack(">H", (~total) & 0xFFFF)
    b[14:34] = hdr
    b[34:36] = struct.pack(">H", DC_PORT)
    b[36:38] = struct.pack(">H", DC_PORT)
    b[43] = HOT
    b[74] = layer          # 42 + 32: extension byte 0
    b[75] = node
    return bytes(b)


def upper_bucket(k):
    return zlib.crc32(k + struct.pack(">I", UPPER_SALT)) % UPPER_BUCKETS


def distinct_buckets(*names):
    ks = [key(n) for n in names]
    assert len({upper_bucket(k) for k in ks}) == len(ks), "pick other key names: buckets collide"
    return ks


def distcache():
    A, B, C, D = distinct_buckets("alpha", "bravo", "charlie", "delta")
    t = Stf("distcache.p4: the DistCache data plane (docs/distcache.md, rules DC-1..DC-12). Servers h1, h2;\n"
            "client h10; cache node 5 (upper) behind port 20, node 7 (lower) behind port 21. The switch is a\n"
            "client ToR first, then the lower-layer cache node 3, then an upper-layer one.")
    t.lines = [l.replace("gen_stf.py", "gen_distcache_stf.py") for l in t.lines]
    for h in (S1, S2, CLIENT, CONTROLLER):
        t.cmd("add MyIngress.ipv4_forward hdr.ipv4.dst_addr:0x%s MyIngress.set_egress_port(port:%d)"
              % (ip(h).hex(), PORT_OF[h]))
    for n, p in NODE_PORT.items():
        t.cmd("add MyIngress.node_forward hdr.dc.node:%d MyIngress.set_egress_port(port:%d)" % (n, p))
    t.cmd("mirroring_add %d %d" % (CLONE_SESSION, PORT_OF[CONTROLLER]))

    # ------------------------------------------------------------------ client ToR
    t.comment("=== the switch as a client rack's ToR: dc_routes_reads = 1, no cache node of its own")
    t.reg("dc_routes_reads", 0, 1)

    t.comment("DC-1/DC-11: neither layer has a node for the key (no partition yet): unrouted, by IPv4")
    g = from_client(S1, dc(GET, A, 1))
    t.packet(10, g)
    t.expect(1, g)

    t.comment("partitions: alpha's upper bucket -> node 5, charlie's -> node 5; server h1's rack ToR is node 7")
    t.reg("upper_partition", upper_bucket(A), 5)
    t.reg("upper_partition", upper_bucket(C), 5)
    t.cmd("add MyIngress.server_rack meta.server_addr:0x%s MyIngress.set_lower_node(node:7)" % ip(S1).hex())

    t.comment("DC-1: both loads unknown (0 = 0): the tie goes to the lower node 7, routed by node (DC-2)")
    t.packet(10, from_client(S1, dc(GET, A, 2)))
    t.expect(21, from_client(S1, dc(GET, A, 2, layer=LOWER, node=7)))

    t.comment("DC-10: a reply carrying stamps teaches the ToR node 5's load (9) and node 7's (3); forwarded")
    r = to_client(S1, dc(GET_REPLY, A, 2, value=b"a0", upper_node=5, upper_load=9, lower_node=7, lower_load=3))
    t.packet(1, r)
    t.expect(10, r)
    t.cmd("check_register MyIngress.node_load(5) == 9")
    t.cmd("check_register MyIngress.node_load(7) == 3")

    t.comment("DC-1: 3 < 9: the lower node")
    t.packet(10, from_client(S1, dc(GET, A, 3)))
    t.expect(21, from_client(S1, dc(GET, A, 3, layer=LOWER, node=7)))

    t.comment("DC-10 then DC-1: node 7 now reports 20 (a PUT_REPLY carries stamps too): the upper node 5 wins")
    r = to_client(S1, dc(PUT_REPLY, A, 4, seq=1, lower_node=7, lower_load=20))
    t.packet(1, r)
    t.expect(10, r)
    t.cmd("check_register MyIngress.node_load(7) == 20")
    t.packet(10, from_client(S1, dc(GET, A, 5)))
    t.expect(20, from_client(S1, dc(GET, A, 5, layer=UPPER, node=5)))

    t.comment("DC-1: charlie is on h2, whose rack has no lower node: only the upper candidate remains")
    t.packet(10, from_client(S2, dc(GET, C, 6)))
    t.expect(20, from_client(S2, dc(GET, C, 6, layer=UPPER, node=5)))

    t.comment("DC-1: bravo on h1: upper bucket unset, lower node 7 (load 20) is the only candidate")
    t.packet(10, from_client(S1, dc(GET, B, 7)))
    t.expect(21, from_client(S1, dc(GET, B, 7, layer=LOWER, node=7)))

    t.comment("DC-2: a read already routed (layer set) is not routed again, whatever the loads")
    g = from_client(S1, dc(GET, A, 8, layer=LOWER, node=7))
    t.packet(10, g)
    t.expect(21, g)

    t.comment("DC-2: a read routed to a node with no route is dropped (DROP_NO_ROUTE)")
    t.packet(10, from_client(S1, dc(GET, A, 9, layer=UPPER, node=9)))
    t.cmd("check_register MyIngress.drop_count(%d) == 1" % DROP_NO_ROUTE)

    t.comment("DC-11: writes go to their server unchanged (§4.2: no detour)")
    w = from_client(S1, dc(PUT, A, 10, value=b"new"))
    t.packet(10, w)
    t.expect(1, w)

    # ------------------------------------------------------------------ lower-layer cache node 3
    t.comment("=== the switch as the lower-layer cache node 3 (h1's rack ToR), not a client ToR")
    t.reg("dc_routes_reads", 0, 0)
    t.reg("dc_node", 0, 3)
    t.reg("dc_layer", 0, LOWER)
    t.cmd("add MyIngress.server_rack meta.server_addr:0x%s MyIngress.set_lower_node(node:3)" % ip(S2).hex())
    t.reg("dc_hot_threshold", 0, 2)
    served = 0

    t.comment("DC-4: a read routed here, key not cached: miss, node := 0, on to the server by IPv4;\n"
              "the heavy-hitter estimate is 1 (threshold 2): no report")
    t.packet(21, from_client(S2, dc(GET, D, 11, layer=LOWER, node=3)))
    t.expect(2, from_client(S2, dc(GET, D, 11, layer=LOWER, node=0)))
    served += 1
    t.cmd("check_register MyIngress.load_count(0) == %d" % served)

    t.comment("DC-4: the second miss reaches the threshold: the read goes on AND a HOT report (clone)\n"
              "names node 3, layer 2, to the agent on port 64")
    g = from_client(S2, dc(GET, D, 12, layer=LOWER, node=3))
    t.packet(21, g)
    fwd = from_client(S2, dc(GET, D, 12, layer=LOWER, node=0))
    t.expect(2, fwd)
    t.expect(64, hot_report(fwd, 3, LOWER))
    served += 1

    t.comment("the agent inserts delta at index 4, invalid, waiting for the fill of its insertion token 11\n"
              "(CacheInsert); the FETCH it sends to the server is ordinary traffic (DC-11)")
    t.cmd("add MyIngress.cache_lookup hdr.innet.key:0x%s MyIngress.set_cache_index(index:4)" % D.hex())
    t.reg("record_valid", 4, 0)
    t.reg("record_seen", 4, 0)
    t.reg("record_token", 4, 11)
    f = frame(CONTROLLER, S2, DC_PORT, DC_PORT, dc(FETCH, D, 13, layer=LOWER, node=3, token=11))
    t.packet(64, f)
    t.expect(2, f)

    t.comment("DC-4: cached but invalid: a miss, and no HOT report (the sketch counts uncached keys only)")
    t.packet(21, from_client(S2, dc(GET, D, 14, layer=LOWER, node=3)))
    t.expect(2, from_client(S2, dc(GET, D, 14, layer=LOWER, node=0)))
    served += 1

    t.comment("DC-8 (insertion tokens): a phase-2 update (token 0) before the fill is refused and consumed")
    t.packet(2, from_server(S2, dc(UPD, D, 15, seq=1, value=b"d1", layer=LOWER, node=3)))
    t.cmd("check_register MyIngress.update_outcome(%d) == 1" % REFUSED)
    t.cmd("check_register MyIngress.record_valid(4) == 0")

    t.comment("DC-8: a fill with another token (an older insertion's) is refused")
    t.packet(2, from_server(S2, dc(UPD, D, 15, seq=1, value=b"d1", layer=LOWER, node=3, token=10)))
    t.cmd("check_register MyIngress.update_outcome(%d) == 2" % REFUSED)

    t.comment("DC-8: the fill with token 11 (version 1) is taken: valid, version 1, token cleared")
    t.packet(2, from_server(S2, dc(UPD, D, 15, seq=1, value=b"d1", layer=LOWER, node=3, token=11)))
    t.cmd("check_register MyIngress.update_outcome(%d) == 1" % TAKEN)
    t.cmd("check_register MyIngress.record_valid(4) == 1")
    t.cmd("check_register MyIngress.record_version(4) == 1")
    t.cmd("check_register MyIngress.record_token(4) == 0")

    t.comment("DC-3 + DC-9: a cache hit: the switch answers (GET_REPLY, value, version as seq, FROM_SWITCH,\n"
              "layer 2, node 3) and stamps its load (reads served so far, this one included)")
    t.packet(21, from_client(S2, dc(GET, D, 16, layer=LOWER, node=3)))
    served += 1
    t.expect(10, to_client(S2, dc(GET_REPLY, D, 16, seq=1, value=b"d1", flags=FROM_SWITCH, layer=LOWER, node=3,
                                  lower_node=3, lower_load=served)))

    t.cmd("check_register MyIngress.cached_frequency(4) == 2")

    t.comment("DC-5 + DC-6: phase 1 of write version 2: the server names only the layer; this switch resolves\n"
              "the lower node from the sender (h2 -> 3), which is itself: invalidated, seen := 2, and the\n"
              "packet returns as INV_ACK (seq 2, node 3) to the server")
    t.packet(2, from_server(S2, dc(INV, D, 17, seq=2, layer=LOWER)))
    t.expect(2, to_server(S2, dc(INV_ACK, D, 17, seq=2, layer=LOWER, node=3)))
    t.cmd("check_register MyIngress.record_valid(4) == 0")
    t.cmd("check_register MyIngress.record_seen(4) == 2")

    t.comment("DC-4: invalid: the read misses")
    t.packet(21, from_client(S2, dc(GET, D, 18, layer=LOWER, node=3)))
    t.expect(2, from_client(S2, dc(GET, D, 18, layer=LOWER, node=0)))
    served += 1

    t.comment("DC-6: a duplicated invalidation is acknowledged again; seen stays 2")
    t.packet(2, from_server(S2, dc(INV, D, 17, seq=2, layer=LOWER, node=3)))
    t.expect(2, to_server(S2, dc(INV_ACK, D, 17, seq=2, layer=LOWER, node=3)))
    t.cmd("check_register MyIngress.record_seen(4) == 2")

    t.comment("DC-8 (versions): the previous write's phase-2 update (version 1), overtaken by this write's\n"
              "invalidation, is refused: the copy stays invalid")
    t.packet(2, from_server(S2, dc(UPD, D, 15, seq=1, value=b"d1", layer=LOWER, node=3)))
    t.cmd("check_register MyIngress.update_outcome(%d) == 3" % REFUSED)
    t.cmd("check_register MyIngress.record_valid(4) == 0")

    t.comment("DC-7 + DC-8: phase 2 of version 2 (node resolved here): taken; the next read hits 'd2'")
    t.packet(2, from_server(S2, dc(UPD, D, 19, seq=2, value=b"d2", layer=LOWER)))
    t.cmd("check_register MyIngress.update_outcome(%d) == 2" % TAKEN)
    t.packet(21, from_client(S2, dc(GET, D, 20, layer=LOWER, node=3)))
    served += 1
    t.expect(10, to_client(S2, dc(GET_REPLY, D, 20, seq=2, value=b"d2", flags=FROM_SWITCH, layer=LOWER, node=3,
                                  lower_node=3, lower_load=served)))

    t.comment("DC-8: a duplicate of that update is taken again (same version, token 0): harmless")
    t.packet(2, from_server(S2, dc(UPD, D, 19, seq=2, value=b"d2", layer=LOWER)))
    t.cmd("check_register MyIngress.update_outcome(%d) == 3" % TAKEN)

    t.comment("a 128-byte value (all 16 words): invalidate (v3), update, read it back whole")
    big = bytes((i * 7 + 1) % 256 for i in range(128))
    t.packet(2, from_server(S2, dc(INV, D, 21, seq=3, layer=LOWER)))
    t.expect(2, to_server(S2, dc(INV_ACK, D, 21, seq=3, layer=LOWER, node=3)))
    t.packet(2, from_server(S2, dc(UPD, D, 22, seq=3, value=big, layer=LOWER)))
    t.packet(21, from_client(S2, dc(GET, D, 23, layer=LOWER, node=3)))
    served += 1
    t.expect(10, to_client(S2, dc(GET_REPLY, D, 23, seq=3, value=big, flags=FROM_SWITCH, layer=LOWER, node=3,
                                  lower_node=3, lower_load=served)))

    t.comment("a delete (v4): the update carries flag DELETED and no value; the hit answers NOT_FOUND")
    t.packet(2, from_server(S2, dc(INV, D, 24, seq=4, layer=LOWER)))
    t.expect(2, to_server(S2, dc(INV_ACK, D, 24, seq=4, layer=LOWER, node=3)))
    t.packet(2, from_server(S2, dc(UPD, D, 25, seq=4, flags=DELETED, layer=LOWER)))
    t.packet(21, from_client(S2, dc(GET, D, 26, layer=LOWER, node=3)))
    served += 1
    t.expect(10, to_client(S2, dc(GET_REPLY, D, 26, seq=4, status=NOT_FOUND, flags=FROM_SWITCH, layer=LOWER,
                                  node=3, lower_node=3, lower_load=served)))

    t.comment("DC-8: a value above 128 bytes cannot be cached: the update (v5) is refused, the copy stays invalid")
    t.packet(2, from_server(S2, dc(INV, D, 27, seq=5, layer=LOWER)))
    t.expect(2, to_server(S2, dc(INV_ACK, D, 27, seq=5, layer=LOWER, node=3)))
    t.packet(2, from_server(S2, dc(UPD, D, 28, seq=5, value=bytes(200), layer=LOWER)))
    t.cmd("check_register MyIngress.update_outcome(%d) == 4" % REFUSED)
    t.cmd("check_register MyIngress.record_valid(4) == 0")
    t.cmd("check_register MyIngress.record_seen(4) == 5")

    t.comment("DC-6: an invalidation of a key this node does not cache is acknowledged and changes nothing")
    t.packet(2, from_server(S2, dc(INV, C, 29, seq=1, layer=LOWER)))
    t.expect(2, to_server(S2, dc(INV_ACK, C, 29, seq=1, layer=LOWER, node=3)))

    t.comment("DC-5: the upper layer has no node for bravo (bucket unset): no copy can exist, so the first\n"
              "switch acknowledges the invalidation itself (node 0)")
    t.packet(2, from_server(S2, dc(INV, B, 30, seq=1, layer=UPPER)))
    t.expect(2, to_server(S2, dc(INV_ACK, B, 30, seq=1, layer=UPPER)))

    t.comment("DC-7: ... and an update for it has nothing to fill: consumed, counted refused")
    t.packet(2, from_server(S2, dc(UPD, B, 31, seq=1, value=b"b1", layer=UPPER)))
    t.cmd("check_register MyIngress.update_outcome(%d) == 5" % REFUSED)

    t.comment("DC-5 + DC-2: delta's upper copy is node 5's (bucket set now): the invalidation is routed\n"
              "there unchanged but for the node")
    t.reg("upper_partition", upper_bucket(D), 5)
    t.packet(2, from_server(S2, dc(INV, D, 32, seq=6, layer=UPPER)))
    t.expect(20, from_server(S2, dc(INV, D, 32, seq=6, layer=UPPER, node=5)))

    t.comment("DC-9: a server's reply passing this cache switch gets its lower stamp (node 3, load)")
    t.packet(2, to_client(S2, dc(GET_REPLY, C, 33, seq=1, value=b"c1", upper_node=5, upper_load=2)))
    t.expect(10, to_client(S2, dc(GET_REPLY, C, 33, seq=1, value=b"c1", upper_node=5, upper_load=2,
                                  lower_node=3, lower_load=served)))

    t.comment("DC-9: the load saturates at 65535 in the stamp")
    t.reg("load_count", 0, 70000)
    t.packet(2, to_client(S2, dc(PUT_REPLY, C, 34, seq=2)))
    t.expect(10, to_client(S2, dc(PUT_REPLY, C, 34, seq=2, lower_node=3, lower_load=65535)))
    t.reg("load_count", 0, 0)

    t.comment("DC-12: an INV_ACK, FETCH or HOT is never stamped nor processed here, and never routed by its\n"
              "node (it is addressed to a host): forwarded by IPv4")
    a = to_server(S1, dc(INV_ACK, A, 35, seq=1, layer=UPPER, node=5))
    t.packet(20, a)
    t.expect(1, a)
    f = frame(CONTROLLER, S1, DC_PORT, DC_PORT, dc(FETCH, A, 35, layer=UPPER, node=5, token=12))
    t.packet(64, f)
    t.expect(1, f)
    h = frame(CLIENT, CONTROLLER, CLIENT_UDP, DC_PORT, dc(HOT, A, 35, layer=UPPER, node=5))
    t.packet(20, h)
    t.expect(64, h)

    # ------------------------------------------------------------------ upper-layer cache node 3
    t.comment("=== the same switch as an upper-layer cache node (dc_layer 1): stamps go to the upper fields")
    t.reg("dc_layer", 0, UPPER)
    t.packet(2, to_client(S2, dc(GET_REPLY, C, 36, seq=1, value=b"c1", lower_node=7, lower_load=4)))
    t.expect(10, to_client(S2, dc(GET_REPLY, C, 36, seq=1, value=b"c1", upper_node=3, upper_load=0,
                                  lower_node=7, lower_load=4)))

    t.comment("DC-3: a hit answered by an upper copy names layer 1 and stamps the upper load")
    t.cmd("add MyIngress.cache_lookup hdr.innet.key:0x%s MyIngress.set_cache_index(index:9)" % A.hex())
    t.reg("record_token", 9, 0)
    t.reg("record_seen", 9, 0)
    t.reg("record_valid", 9, 0)
    t.packet(1, from_server(S1, dc(UPD, A, 37, seq=3, value=b"a3", layer=UPPER, node=3)))
    t.packet(10, from_client(S1, dc(GET, A, 38, layer=UPPER, node=3)))
    t.expect(10, to_client(S1, dc(GET_REPLY, A, 38, seq=3, value=b"a3", flags=FROM_SWITCH, layer=UPPER, node=3,
                                  upper_node=3, upper_load=1)))

    t.comment("a frame on 5012 without the 12-byte extension is relayed untouched (the receiver's codec rejects it)")
    raw = from_client(S1, struct.pack(">BBBBI16sIHH", 0xA1, GET, 0, 0, 39, A, 0, 0, 0))
    t.packet(10, raw)
    t.expect(1, raw)

    t.write("distcache.stf")


if __name__ == "__main__":
    distcache()
