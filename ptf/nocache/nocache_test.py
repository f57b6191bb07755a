"""nocache.p4 (docs/p4-programs.md, nocache.p4): the switch forwards by IPv4 destination and never changes a
key-value message; frames it cannot route are dropped."""
from innet_ptf import (KV_PORT, CLIENT_PORT, Innet, SwitchTest, frame, key16)

GET, PUT, DEL = 0x01, 0x02, 0x03


class RequestsReachTheServerUnchanged(SwitchTest):
    """GET, PUT and DEL from client h1 (port 1) leave on server h2's port 2 byte for byte: no cache here."""

    def runTest(self):
        self.route({1: 1, 2: 2})
        for req_id, op, value in ((1, GET, b""), (2, PUT, b"value-2"), (3, DEL, b"")):
            pkt = frame(1, 2, CLIENT_PORT, KV_PORT, Innet(op=op, req_id=req_id, key=key16("alpha")), value=value)
            self.send(1, pkt)
            self.expect(pkt, 2)
        self.expect_nothing_else()


class RepliesReachTheClient(SwitchTest):
    """A server's reply travels back to the client's port, unchanged (FROM_SWITCH stays clear)."""

    def runTest(self):
        self.route({1: 1, 2: 2})
        reply = frame(2, 1, KV_PORT, CLIENT_PORT, Innet(op=GET | 0x80, req_id=9, key=key16("alpha")), value=b"v")
        self.send(2, reply)
        self.expect(reply, 1)
        self.expect_nothing_else()


class UnroutedFramesAreDroppedAndCounted(SwitchTest):
    """No route for 10.0.0.3: the frame is dropped (drop_no_route), and the reason's counter says so."""

    def runTest(self):
        self.route({1: 1, 2: 2})
        pkt = frame(1, 3, CLIENT_PORT, KV_PORT, Innet(op=GET, req_id=4, key=key16("alpha")))
        self.send(1, pkt)
        self.expect_nothing_else()
        # DROP_NO_ROUTE is reason 5 (p4/include/defines.p4)
        self.assertEqual(self.register_read("MyIngress.drop_count", 5), 1)
