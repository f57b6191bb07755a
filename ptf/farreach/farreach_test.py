"""farreach.p4: FarReach's write-back cache (docs/p4-programs.md §5; case IDs FR-n in the docstrings).
Client h1 on port 1, server h2 on port 2, the controller on CPU port 64. Every test starts from reset_state:
empty tables, all registers 0 (so a key's first write gets seq 1)."""
from innet_ptf import (CPU_PORT, DELETED, FARREACH_CTL_PORT, FROM_SWITCH, HOT, NOT_FOUND, CacheTest, Innet,
                       frame, key16)

GET, PUT, DEL = 0x01, 0x02, 0x03
GET_REPLY, PUT_REPLY, DEL_REPLY = 0x81, 0x82, 0x83
GET_FOR_CACHE, PUT_SEQ, GET_EMBED, GET_FOR_CACHE_REPLY = 0x11, 0x12, 0x14, 0x91
SNAPSHOT_ORIGINAL = 0x23
DROP_RECOVERING = 6
CPU_CLONE_SESSION = 100


class CachedReadAnsweredBySwitch(CacheTest):
    """FR-2: a read of a latest cached record is answered by the switch, with the cached value and seq, out of
    the client's port; the server sees nothing."""

    def runTest(self):
        self.admit(5, "alpha", b"alpha-server", seq=7, record_latest=1)
        self.send(1, self.request(GET, 11, "alpha"))
        self.expect(self.switch_reply(GET_REPLY, 11, "alpha", value=b"alpha-server", seq=7), 1)
        self.expect_nothing_else()


class MissForwardedToServer(CacheTest):
    """FR-1: a read of an uncached key goes to the server unchanged, and the Count-Min sketch counts it."""

    def runTest(self):
        self.admit(5, "alpha", b"alpha-server", seq=7, record_latest=1)
        pkt = self.request(GET, 12, "bravo")
        self.send(1, pkt)
        self.expect(pkt, 2)
        self.expect_nothing_else()


class HotKeyFlagged(CacheTest):
    """FR-1 with a hot threshold of 3: the third request of an uncached key reaches the estimate and is
    forwarded with the HOT flag (the server then reports the key to the controller, §3.2)."""

    def runTest(self):
        self.register_write("MyIngress.hot_threshold", 0, 3)
        for req_id in (1, 2):
            pkt = self.request(GET, req_id, "bravo")
            self.send(1, pkt)
            self.expect(pkt, 2)
        self.send(1, self.request(GET, 3, "bravo"))
        self.expect(self.request(GET, 3, "bravo", flags=HOT), 2)
        self.expect_nothing_else()


class OutdatedRecordReadConservatively(CacheTest):
    """FR-4 then FR-11: a read of an outdated record goes to the server as GET_FOR_CACHE; the server's reply
    refreshes the record and reaches the client as GET_REPLY; the next read is a hit with the server's value."""

    def runTest(self):
        self.admit(5, "alpha", b"alpha-old", seq=0, record_latest=0)
        self.send(1, self.request(GET, 21, "alpha"))
        self.expect(self.request(GET_FOR_CACHE, 21, "alpha"), 2)
        self.expect_nothing_else()

        self.send(2, self.server_reply(GET_FOR_CACHE_REPLY, 21, "alpha", value=b"alpha-server", seq=0))
        self.expect(self.server_reply(GET_REPLY, 21, "alpha", value=b"alpha-server", seq=0), 1)
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.record_latest", 5), 1)

        self.send(1, self.request(GET, 22, "alpha"))
        self.expect(self.switch_reply(GET_REPLY, 22, "alpha", value=b"alpha-server", seq=0), 1)
        self.expect_nothing_else()


class WriteHitAbsorbedBySwitch(CacheTest):
    """FR-6: a write to a cached key is numbered (seq 1), stored in the switch and acknowledged by it; the
    server sees nothing (write-back); a read then returns the new value with that seq."""

    def runTest(self):
        self.admit(5, "alpha", b"alpha-server", seq=0, record_latest=0)
        self.send(1, self.request(PUT, 31, "alpha", value=b"alpha-1"))
        self.expect(self.switch_reply(PUT_REPLY, 31, "alpha", seq=1), 1)
        self.expect_nothing_else()
        self.send(1, self.request(GET, 32, "alpha"))
        self.expect(self.switch_reply(GET_REPLY, 32, "alpha", value=b"alpha-1", seq=1), 1)
        self.expect_nothing_else()


class WriteMissNumberedAndForwarded(CacheTest):
    """FR-10: writes to an uncached key become PUT_SEQ with the next number of the key's slot (1, then 2)."""

    def runTest(self):
        for req_id, seq in ((41, 1), (42, 2)):
            self.send(1, self.request(PUT, req_id, "bravo", value=b"bee"))
            self.expect(self.request(PUT_SEQ, req_id, "bravo", value=b"bee", seq=seq), 2)
        self.expect_nothing_else()


class RetriedWriteKeepsItsNumber(CacheTest):
    """FR-14: a copy of a client's last write (same req_id) gets that write's seq again, not a new one."""

    def runTest(self):
        for _ in range(2):
            self.send(1, self.request(PUT, 45, "bravo", value=b"bee"))
            self.expect(self.request(PUT_SEQ, 45, "bravo", value=b"bee", seq=1), 2)
        self.expect_nothing_else()


class DeleteHitLeavesTombstone(CacheTest):
    """FR-7 then FR-3: a delete of a cached key is absorbed (DEL_REPLY from the switch); a read then gets
    NOT_FOUND from the switch, with no value."""

    def runTest(self):
        self.admit(5, "alpha", b"alpha-server", seq=0, record_latest=1)
        self.send(1, self.request(DEL, 51, "alpha"))
        self.expect(self.switch_reply(DEL_REPLY, 51, "alpha", seq=1), 1)
        self.send(1, self.request(GET, 52, "alpha"))
        self.expect(self.switch_reply(GET_REPLY, 52, "alpha", seq=1, status=NOT_FOUND), 1)
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.record_deleted", 5), 1)


class LargeValueRelayedUncached(CacheTest):
    """FR-9 then FR-5: a 200-byte write to a cached key is forwarded as PUT_SEQ with its value, and marks the
    record outdated and to-be-evicted, so the next read carries the cached record to the server (GET_EMBED)."""

    def runTest(self):
        self.admit(5, "alpha", b"alpha-server", seq=0, record_latest=1)
        big = bytes(range(200))
        self.send(1, self.request(PUT, 61, "alpha", value=big))
        self.expect(self.request(PUT_SEQ, 61, "alpha", value=big, seq=1), 2)
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.record_latest", 5), 0)
        self.assertEqual(self.register_read("MyIngress.record_evicting", 5), 1)
        self.send(1, self.request(GET, 62, "alpha"))
        self.expect(self.request(GET_EMBED, 62, "alpha", value=b"alpha-server", seq=0), 2)
        self.expect_nothing_else()


class SnapshotReportsTheOriginal(CacheTest):
    """FR-6 during snapshot 1 (§3.4): the first write to a record clones the record as it was to the CPU port
    (SNAPSHOT_ORIGINAL, 10.0.0.254 -> 10.0.0.254 on 5009) and is answered as usual; a second write reports
    nothing more."""

    def runTest(self):
        self.cli("mirroring_add %d %d" % (CPU_CLONE_SESSION, CPU_PORT))
        self.admit(5, "alpha", b"alpha-server", seq=0, record_latest=1)
        self.register_write("MyIngress.snapshot_epoch", 0, 1)
        self.send(1, self.request(PUT, 71, "alpha", value=b"alpha-1"))
        self.expect(self.switch_reply(PUT_REPLY, 71, "alpha", seq=1), 1)
        original = frame(254, 254, FARREACH_CTL_PORT, FARREACH_CTL_PORT,
                         Innet(op=SNAPSHOT_ORIGINAL, req_id=71, key=key16("alpha"), seq=0), value=b"alpha-server")
        self.expect(original, CPU_PORT)
        self.send(1, self.request(PUT, 72, "alpha", value=b"alpha-2"))
        self.expect(self.switch_reply(PUT_REPLY, 72, "alpha", seq=2), 1)
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.record_saved_epoch", 5), 1)


class RecoveringSwitchDropsClientRequests(CacheTest):
    """While recovering (§3.4), client requests are dropped (DROP_RECOVERING) and server replies still pass."""

    def runTest(self):
        self.admit(5, "alpha", b"alpha-server", seq=0, record_latest=1)
        self.register_write("MyIngress.recovering", 0, 1)
        self.send(1, self.request(GET, 81, "alpha"))
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.drop_count", DROP_RECOVERING), 1)
        reply = self.server_reply(GET_REPLY, 80, "bravo", value=b"bee", seq=3)
        self.send(2, reply)
        self.expect(reply, 1)
        self.expect_nothing_else()
