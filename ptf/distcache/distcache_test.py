"""distcache.p4: DistCache's two cache layers (docs/distcache.md, rules DC-n in the docstrings). Servers h1, h2
on ports 1, 2; client h10 on port 10; cache node 5 (upper layer) behind port 20, node 7 (lower) behind port
21; the agent on CPU port 64. The role comes from registers: client ToR, or cache node 3 of the lower layer.
Every test starts from reset_state."""
import struct
import zlib

from innet_ptf import (CLIENT_PORT, CPU_PORT, DISTCACHE_PORT, FROM_SWITCH, SwitchTest, Innet, frame, key16,
                       value_words)

GET, GET_REPLY, INV, INV_ACK, HOT = 0x01, 0x81, 0x31, 0xB1, 0x34
UPPER, LOWER = 1, 2
CLIENT, AGENT = 10, 254
UPPER_SALT = 0x2545F491
UPPER_BUCKETS = 1024


def ext(layer=0, node=0, upper_node=0, lower_node=0, upper_load=0, lower_load=0, token=0):
    """The 12-byte DistCache extension (docs/distcache.md, Wire format)."""
    return struct.pack(">BBBBHHI", layer, node, upper_node, lower_node, upper_load, lower_load, token)


def dc(src, dst, sport, dport, op, req_id, key, seq=0, value=b"", flags=0, **extension):
    return frame(src, dst, sport, dport, Innet(op=op, req_id=req_id, key=key16(key), seq=seq, flags=flags),
                 extension=ext(**extension), value=value)


def upper_bucket(key):
    """A key's upper-layer bucket: zlib's CRC-32 of its 16 bytes followed by the salt, mod 1024."""
    return zlib.crc32(key16(key) + struct.pack(">I", UPPER_SALT)) % UPPER_BUCKETS


class DistCacheTest(SwitchTest):
    def setUp(self):
        SwitchTest.setUp(self)
        self.route({1: 1, 2: 2, CLIENT: 10, AGENT: CPU_PORT})
        for node, port in ((5, 20), (7, 21)):
            self.table_add("MyIngress.node_forward", "MyIngress.set_egress_port", [node], [port])
        self.cli("mirroring_add 100 %d" % CPU_PORT)

    def get(self, req_id, key, server, **extension):
        return dc(CLIENT, server, CLIENT_PORT, DISTCACHE_PORT, GET, req_id, key, **extension)

    def become_lower_cache_node_3(self):
        self.register_write("MyIngress.dc_routes_reads", 0, 0)
        self.register_write("MyIngress.dc_node", 0, 3)
        self.register_write("MyIngress.dc_layer", 0, LOWER)
        self.table_add("MyIngress.server_rack", "MyIngress.set_lower_node", ["0x0a000002"], [3])


class ClientTorPicksTheLessLoadedCopy(DistCacheTest):
    """DC-1 (power of two choices): a client ToR sends a read to the less loaded of the key's upper node (by
    bucket) and lower node (the server's rack), writing its choice into layer/node; DC-2 routes it by node."""

    def runTest(self):
        self.register_write("MyIngress.dc_routes_reads", 0, 1)
        self.register_write("MyIngress.upper_partition", upper_bucket("alpha"), 5)
        self.table_add("MyIngress.server_rack", "MyIngress.set_lower_node", ["0x0a000001"], [7])
        self.register_write("MyIngress.node_load", 5, 9)
        self.register_write("MyIngress.node_load", 7, 3)
        self.send(10, self.get(1, "alpha", 1))
        self.expect(self.get(1, "alpha", 1, layer=LOWER, node=7), 21)
        self.expect_nothing_else()
        self.register_write("MyIngress.node_load", 7, 20)
        self.send(10, self.get(2, "alpha", 1))
        self.expect(self.get(2, "alpha", 1, layer=UPPER, node=5), 20)
        self.expect_nothing_else()


class CacheNodeAnswersAHit(DistCacheTest):
    """DC-3 + DC-9: a read routed to this cache node for a valid cached key is answered by the switch: GET_REPLY
    with the value and version, FROM_SWITCH, this copy's layer and node, and its load stamp (1 read served)."""

    def runTest(self):
        self.become_lower_cache_node_3()
        self.table_add("MyIngress.cache_lookup", "MyIngress.set_cache_index", ["0x" + key16("delta").hex()], [4])
        for i, word in enumerate(value_words(b"d1")):
            self.register_write("MyIngress.value_word_%02d" % i, 4, word)
        self.register_write("MyIngress.record_vallen", 4, 2)
        self.register_write("MyIngress.record_version", 4, 1)
        self.register_write("MyIngress.record_valid", 4, 1)
        self.send(21, self.get(16, "delta", 2, layer=LOWER, node=3))
        self.expect(dc(2, CLIENT, DISTCACHE_PORT, CLIENT_PORT, GET_REPLY, 16, "delta", seq=1, value=b"d1",
                       flags=FROM_SWITCH, layer=LOWER, node=3, lower_node=3, lower_load=1), 10)
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.cached_frequency", 4), 1)


class MissGoesToTheServerAndReportsHotKeys(DistCacheTest):
    """DC-4: a read routed here for an uncached key goes on to its server by IPv4 with node := 0; when the key's
    estimate reaches the threshold (2) the read also goes to the agent as a HOT report naming this node."""

    def runTest(self):
        self.become_lower_cache_node_3()
        self.register_write("MyIngress.dc_hot_threshold", 0, 2)
        self.send(21, self.get(11, "delta", 2, layer=LOWER, node=3))
        self.expect(self.get(11, "delta", 2, layer=LOWER, node=0), 2)
        self.expect_nothing_else()
        self.send(21, self.get(12, "delta", 2, layer=LOWER, node=3))
        self.expect(self.get(12, "delta", 2, layer=LOWER, node=0), 2)
        report = dc(CLIENT, AGENT, DISTCACHE_PORT, DISTCACHE_PORT, HOT, 12, "delta", layer=LOWER, node=3)
        self.expect(report, CPU_PORT)
        self.expect_nothing_else()


class InvalidationTurnsIntoAnAck(DistCacheTest):
    """DC-5 + DC-6: phase 1 of a write (version 2): the INV names only the layer; this switch resolves the lower
    node from the sender's rack (itself), invalidates its copy (seen := 2) and returns the packet as INV_ACK."""

    def runTest(self):
        self.become_lower_cache_node_3()
        self.table_add("MyIngress.cache_lookup", "MyIngress.set_cache_index", ["0x" + key16("delta").hex()], [4])
        self.register_write("MyIngress.record_version", 4, 1)
        self.register_write("MyIngress.record_valid", 4, 1)
        self.send(2, dc(2, AGENT, DISTCACHE_PORT, DISTCACHE_PORT, INV, 17, "delta", seq=2, layer=LOWER))
        self.expect(dc(AGENT, 2, DISTCACHE_PORT, DISTCACHE_PORT, INV_ACK, 17, "delta", seq=2, layer=LOWER, node=3), 2)
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.record_valid", 4), 0)
        self.assertEqual(self.register_read("MyIngress.record_seen", 4), 2)
