"""visibility.p4: the in-switch data visibility layer (docs/visibility.md "The switch program", rules W1-W3,
R1-R2, Z1 in the docstrings). Client h1, data node h2, metadata node h3, controller on CPU port 64; the
client puts the key's hash index and fingerprint in the extension ('alpha' and 'bravo': index 7,
fingerprints 0xA and 0xB). Every test starts from reset_state (vis_ready 0, every entry clear)."""
import struct

from innet_ptf import CLIENT_PORT, CPU_PORT, FROM_SWITCH, VISIBILITY_PORT, Innet, SwitchTest, frame, key16

WRITE, WRITE_REPLY, META_ASYNC, READ, READ_REPLY = 0x41, 0xC1, 0x42, 0x46, 0xC6
VISIBLE = 0x08
CLIENT, DATA, METADATA = 1, 2, 3
MDN_CLONE_SESSION = 101
FINGERPRINT = {"alpha": 0xA, "bravo": 0xB}


def vis(src, dst, sport, dport, op, req_id, key, seq=0, value=b"", flags=0):
    extension = struct.pack(">HHI", 7, 0, FINGERPRINT[key])
    return frame(src, dst, sport, dport, Innet(op=op, req_id=req_id, key=key16(key), seq=seq, flags=flags),
                 extension=extension, value=value)


class VisibilityTest(SwitchTest):
    def setUp(self):
        SwitchTest.setUp(self)
        self.route({CLIENT: 1, DATA: 2, METADATA: 3, 254: CPU_PORT})
        self.cli("mirroring_add %d %d" % (MDN_CLONE_SESSION, METADATA))
        self.register_write("MyIngress.vis_mdn_host", 0, METADATA)

    def write_reply(self, req_id, key, ts, metadata, flags=0):
        return vis(DATA, CLIENT, VISIBILITY_PORT, CLIENT_PORT, WRITE_REPLY, req_id, key, seq=ts, value=metadata,
                   flags=flags)

    def read(self, req_id, key):
        return vis(CLIENT, METADATA, CLIENT_PORT, VISIBILITY_PORT, READ, req_id, key)


class NotReadySwitchDropsVisibilityMessages(VisibilityTest):
    """Z1: before the control plane sets vis_ready, WRITE_REPLYs and READs are dropped (a fresh switch knows
    nothing of in-flight writes), while other messages, such as a client's WRITE, are forwarded."""

    def runTest(self):
        self.send(2, self.write_reply(1, "alpha", 1, b"m1m1m1m1m1m1m1m1"))
        self.send(1, self.read(1, "alpha"))
        self.expect_nothing_else()
        write = vis(CLIENT, DATA, CLIENT_PORT, VISIBILITY_PORT, WRITE, 1, "alpha", value=b"v" * 40)
        self.send(1, write)
        self.expect(write, 2)
        self.expect_nothing_else()


class InstalledWriteIsVisibleAtTheSwitch(VisibilityTest):
    """W2 then R1: a write reply with a new timestamp is installed (VISIBLE flag to the client, META_ASYNC clone
    to the metadata node), and a read of the same key is answered by the switch with that metadata and
    timestamp; R2: a read of another key at the same index (other fingerprint) goes to the metadata node."""

    def runTest(self):
        self.register_write("MyIngress.vis_ready", 0, 1)
        meta = b"m1m1m1m1m1m1m1m1"
        self.send(2, self.write_reply(1, "alpha", 1, meta))
        self.expect(self.write_reply(1, "alpha", 1, meta, flags=VISIBLE), 1)
        self.expect(vis(DATA, METADATA, VISIBILITY_PORT, VISIBILITY_PORT, META_ASYNC, 1, "alpha", seq=1, value=meta), 3)
        self.expect_nothing_else()

        self.send(1, self.read(2, "alpha"))
        self.expect(vis(METADATA, CLIENT, VISIBILITY_PORT, CLIENT_PORT, READ_REPLY, 2, "alpha", seq=1, value=meta,
                        flags=FROM_SWITCH), 1)
        other = self.read(3, "bravo")
        self.send(1, other)
        self.expect(other, 3)
        self.expect_nothing_else()


class OlderWriteFallsBack(VisibilityTest):
    """W1/W3: after bravo was installed at index 7 with timestamp 2 (MaxTs 2), a reply for alpha (same index) with
    timestamp 1 is not installed: it passes unchanged
    (no VISIBLE flag, no clone), and reads of its key still go to the metadata node."""

    def runTest(self):
        self.register_write("MyIngress.vis_ready", 0, 1)
        self.send(2, self.write_reply(1, "bravo", 2, b"m2m2m2m2"))
        self.expect(self.write_reply(1, "bravo", 2, b"m2m2m2m2", flags=VISIBLE), 1)
        self.expect(vis(DATA, METADATA, VISIBILITY_PORT, VISIBILITY_PORT, META_ASYNC, 1, "bravo", seq=2,
                        value=b"m2m2m2m2"), 3)
        self.expect_nothing_else()
        old = self.write_reply(2, "alpha", 1, b"m1m1m1m1")
        self.send(2, old)
        self.expect(old, 1)
        self.expect_nothing_else()
        read = self.read(3, "alpha")
        self.send(1, read)
        self.expect(read, 3)
        self.expect_nothing_else()
