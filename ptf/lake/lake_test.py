"""lake.p4: LaKe's two-layer memcached cache (docs/lake.md "Data plane", rules LK-n in the docstrings). Client
h1 on port 1, the memcached host h2 on port 2; memcached's binary protocol over UDP 11211, 16-byte keys and
32-byte values cached. Every test starts from reset_state (tag_counter 0: the first tag is 1)."""
import struct

from innet_ptf import CLIENT_PORT, MEMCACHED_PORT, SwitchTest, ip, mac
from scapy.all import Ether, IP, UDP

GET, SET, DELETE = 0x00, 0x01, 0x04
REQUEST, RESPONSE = 0x80, 0x81
LAKE_ANSWER_IP_ID = 0x4C4B     # "LK": the IPv4 identification of answers LaKe writes itself (p4/lake.p4)
DROP_MC_UNKNOWN_TAG = 7
CLIENT, HOST = 1, 2
K1 = b"key-000000000089"


def datagram(request_id, message):
    """memcached's 8-byte UDP frame header (request id, sequence 0, 1 datagram, reserved) and one message."""
    return struct.pack(">HHHH", request_id, 0, 1, 0) + message


def binary(magic, opcode, opaque, key=b"", extras=b"", value=b"", status=0, cas=0):
    """A memcached binary-protocol message: the 24-byte header and its body."""
    body = extras + key + value
    return struct.pack(">BBHBBHIIQ", magic, opcode, len(key), len(extras), 0, status, len(body), opaque, cas) + body


def udp_frame(src, dst, sport, dport, payload, checksum=None, ip_id=0):
    udp = UDP(sport=sport, dport=dport) if checksum is None else UDP(sport=sport, dport=dport, chksum=checksum)
    return Ether(src=mac(src), dst=mac(dst)) / IP(src=ip(src), dst=ip(dst), id=ip_id, flags="DF", ttl=64) / udp / payload


class LakeTest(SwitchTest):
    def setUp(self):
        SwitchTest.setUp(self)
        self.route({CLIENT: 1, HOST: 2, 254: 64})

    def get(self, request_id, opaque, checksum=0x1234):
        return udp_frame(CLIENT, HOST, CLIENT_PORT, MEMCACHED_PORT,
                         datagram(request_id, binary(REQUEST, GET, opaque, key=K1)), checksum=checksum)

    def get_to_host(self, request_id, tag):
        return udp_frame(CLIENT, HOST, CLIENT_PORT, MEMCACHED_PORT,
                         datagram(request_id, binary(REQUEST, GET, tag, key=K1)), checksum=0)

    def hit_reply(self, request_id, opaque, value, flags=7, cas=0x64, checksum=None, src=HOST, dst=CLIENT, ip_id=0):
        return udp_frame(src, dst, MEMCACHED_PORT, CLIENT_PORT,
                         datagram(request_id, binary(RESPONSE, GET, opaque, extras=struct.pack(">I", flags),
                                                     value=value, cas=cas)), checksum=checksum, ip_id=ip_id)

    def fill(self, value):
        """A GET of K1 that misses (tag 1) and the host's hit reply, which fills both layers (LK-2, LK-5)."""
        self.send(1, self.get(1, 0xAAAA0001))
        self.expect(self.get_to_host(1, 1), 2)
        self.send(2, self.hit_reply(1, 1, value, checksum=0x5555))
        self.expect(self.hit_reply(1, 0xAAAA0001, value, checksum=0), 1)
        self.expect_nothing_else()


class MissIsTaggedAndForwardedToTheHost(LakeTest):
    """LK-2: a GET that hits neither layer goes to memcached with the next tag in place of the client's opaque
    (and the UDP checksum zeroed); the host's reply gets the client's opaque back (LK-5)."""

    def runTest(self):
        self.fill(b"k1-initial".ljust(32, b"\x00"))
        self.assertEqual(self.register_read("MyIngress.tag_counter", 0), 1)


class FilledKeyIsAnsweredByLake(LakeTest):
    """LK-3: after the fill, a GET of the key is answered by LaKe itself out of the client's port: value, flags
    and CAS of the fill, the client's opaque and request id, addresses swapped, IPv4 id 'LK'; memcached sees
    nothing."""

    def runTest(self):
        value = b"k1-initial".ljust(32, b"\x00")
        self.fill(value)
        self.send(1, self.get(2, 0xAAAA0002))
        self.expect(self.hit_reply(2, 0xAAAA0002, value, checksum=0, ip_id=LAKE_ANSWER_IP_ID), 1)
        self.expect_nothing_else()


class DeleteInvalidatesBothLayers(LakeTest):
    """LK-8: a DELETE of a cached key invalidates it in both layers at once and is forwarded tagged; the next GET
    misses and goes to memcached again."""

    def runTest(self):
        self.fill(b"k1-initial".ljust(32, b"\x00"))
        delete = datagram(3, binary(REQUEST, DELETE, 0xAAAA0003, key=K1))
        self.send(1, udp_frame(CLIENT, HOST, CLIENT_PORT, MEMCACHED_PORT, delete, checksum=0x1234))
        self.expect(udp_frame(CLIENT, HOST, CLIENT_PORT, MEMCACHED_PORT,
                              datagram(3, binary(REQUEST, DELETE, 2, key=K1)), checksum=0), 2)
        self.send(1, self.get(4, 0xAAAA0004))
        self.expect(self.get_to_host(4, 3), 2)
        self.expect_nothing_else()


class ReplyWithUnknownTagIsDropped(LakeTest):
    """LK-7: a reply whose tag the lookup table does not hold (a duplicate, or from before a reset) is dropped
    and counted; it never reaches a client with a wrong opaque."""

    def runTest(self):
        self.send(2, self.hit_reply(9, 42, b"x" * 32, checksum=0))
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.drop_count", DROP_MC_UNKNOWN_TAG), 1)


class OtherTrafficPassesLikeANic(LakeTest):
    """LK-1: UDP that is not memcached, and memcached's ASCII protocol, are forwarded unchanged."""

    def runTest(self):
        other = udp_frame(CLIENT, HOST, 5555, 6666, b"hello, host", checksum=0x4242)
        ascii_get = udp_frame(CLIENT, HOST, CLIENT_PORT, MEMCACHED_PORT, struct.pack(">HHHH", 9, 0, 1, 0) + b"get foo\r\n",
                              checksum=0x1111)
        for pkt in (other, ascii_get):
            self.send(1, pkt)
            self.expect(pkt, 2)
        self.expect_nothing_else()
