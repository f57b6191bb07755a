"""netcache.p4: NetCache's write-through cache (docs/p4-programs.md §4; case IDs NC-n in the docstrings).
Client h1 on port 1, server h2 on port 2. Every test starts from reset_state (a key's first write gets seq 1)."""
from innet_ptf import HOT, NOT_FOUND, CacheTest

GET, PUT, DEL = 0x01, 0x02, 0x03
GET_REPLY, PUT_REPLY, DEL_REPLY = 0x81, 0x82, 0x83
GET_FOR_CACHE, PUT_SEQ, DEL_SEQ, GET_FOR_CACHE_REPLY = 0x11, 0x12, 0x13, 0x91


class CachedReadAnsweredBySwitch(CacheTest):
    """NC-1: a read of a valid cached key is answered by the switch with value and seq, and counted for the
    controller's victim choice (cached_frequency); the server sees nothing."""

    def runTest(self):
        self.admit(3, "alpha", b"alpha-value-13", seq=4)
        self.send(1, self.request(GET, 1, "alpha"))
        self.expect(self.switch_reply(GET_REPLY, 1, "alpha", value=b"alpha-value-13", seq=4), 1)
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.cached_frequency", 3), 1)


class MissForwardedAndCounted(CacheTest):
    """NC-3: reads of an uncached key go to the server unchanged until the sketch's estimate reaches the hot
    threshold (here 2), then with the HOT flag."""

    def runTest(self):
        self.register_write("MyIngress.hot_threshold", 0, 2)
        first = self.request(GET, 2, "bravo")
        self.send(1, first)
        self.expect(first, 2)
        self.send(1, self.request(GET, 3, "bravo"))
        self.expect(self.request(GET, 3, "bravo", flags=HOT), 2)
        self.expect_nothing_else()


class WriteThroughRevalidatesOnAck(CacheTest):
    """NC-4, NC-2, NC-7: a write to a cached key invalidates it, stages the value and goes to the server as
    PUT_SEQ 1; reads meanwhile go to the server (GET_FOR_CACHE); the server's PUT_REPLY with seq 1 commits the
    staged value, after which the switch answers reads with it."""

    def runTest(self):
        self.admit(3, "alpha", b"old", seq=0)
        self.send(1, self.request(PUT, 10, "alpha", value=b"new-value"))
        self.expect(self.request(PUT_SEQ, 10, "alpha", value=b"new-value", seq=1), 2)
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.record_valid", 3), 0)

        self.send(1, self.request(GET, 11, "alpha"))
        self.expect(self.request(GET_FOR_CACHE, 11, "alpha"), 2)
        self.expect_nothing_else()

        ack = self.server_reply(PUT_REPLY, 10, "alpha", seq=1)
        self.send(2, ack)
        self.expect(ack, 1)
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.record_valid", 3), 1)

        self.send(1, self.request(GET, 12, "alpha"))
        self.expect(self.switch_reply(GET_REPLY, 12, "alpha", value=b"new-value", seq=1), 1)
        self.expect_nothing_else()


class StaleRefreshDoesNotValidate(CacheTest):
    """NC-8/NC-9: after a write numbered 1, a GET_FOR_CACHE_REPLY carrying seq 0 (older than the slot's counter)
    reaches the client as GET_REPLY but leaves the record invalid; one with seq 1 validates it."""

    def runTest(self):
        self.admit(3, "alpha", b"old", seq=0)
        self.send(1, self.request(PUT, 20, "alpha", value=b"new"))
        self.expect(self.request(PUT_SEQ, 20, "alpha", value=b"new", seq=1), 2)

        self.send(2, self.server_reply(GET_FOR_CACHE_REPLY, 21, "alpha", value=b"old", seq=0))
        self.expect(self.server_reply(GET_REPLY, 21, "alpha", value=b"old", seq=0), 1)
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.record_valid", 3), 0)

        self.send(2, self.server_reply(GET_FOR_CACHE_REPLY, 22, "alpha", value=b"new", seq=1))
        self.expect(self.server_reply(GET_REPLY, 22, "alpha", value=b"new", seq=1), 1)
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.record_valid", 3), 1)


class DeleteInvalidatesUntilRewritten(CacheTest):
    """NC-5, NC-9: a delete of a cached key goes to the server as DEL_SEQ and invalidates the record; a
    NOT_FOUND refresh does not validate it (NetCache caches values, not tombstones)."""

    def runTest(self):
        self.admit(3, "alpha", b"old", seq=0)
        self.send(1, self.request(DEL, 30, "alpha"))
        self.expect(self.request(DEL_SEQ, 30, "alpha", seq=1), 2)
        self.send(2, self.server_reply(GET_FOR_CACHE_REPLY, 31, "alpha", seq=1, status=NOT_FOUND))
        self.expect(self.server_reply(GET_REPLY, 31, "alpha", seq=1, status=NOT_FOUND), 1)
        self.send(1, self.request(GET, 32, "alpha"))
        self.expect(self.request(GET_FOR_CACHE, 32, "alpha"), 2)
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.record_valid", 3), 0)
