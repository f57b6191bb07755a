"""pegasus.p4: Pegasus's in-network coherence directory (docs/pegasus.md, rules P-n in the docstrings).
Servers h1-h3 (indices 0-2) on ports 1-3, client h10 on port 10, the controller on CPU port 64; 'alpha' may
take directory slot 5 with home h1. Every test starts from reset_state (switch closed, ver_next 0)."""
import struct

from innet_ptf import CLIENT_PORT, CPU_PORT, PEGASUS_PORT, Innet, SwitchTest, frame, key16

READ, WRITE = 0x01, 0x02
WRITE_REPLY = 0x82
ADD_KEY, ADD_KEY_REPLY = 0x30, 0xB0
DETECTOR = 0x01
DROP_PEGASUS = 7
PEG_DROP_BAD_CONTROL, PEG_DROP_CLOSED = 3, 4
CLIENT, CONTROLLER = 10, 254


def ext(fwd=0, load=0, server=0, pflags=0):
    """The 8-byte Pegasus extension (docs/pegasus.md, Wire format)."""
    return struct.pack(">IHBB", fwd, load, server, pflags)


def pegasus(src, dst, sport, dport, op, req_id, key, seq=0, value=b"", status=0, **extension):
    return frame(src, dst, sport, dport, Innet(op=op, req_id=req_id, key=key16(key), seq=seq, status=status),
                 extension=ext(**extension), value=value)


class DirectoryTest(SwitchTest):
    def setUp(self):
        SwitchTest.setUp(self)
        self.route({1: 1, 2: 2, 3: 3, CLIENT: 10, CONTROLLER: CPU_PORT})
        for index, host in enumerate((1, 2, 3)):
            self.table_add("MyIngress.server_address", "MyIngress.set_server_address", [index],
                           ["0x%08x" % (0x0A000000 | host), "0x0200000000%02x" % host])
        self.register_write("MyIngress.server_count", 0, 3)

    def open_switch(self):
        self.register_write("MyIngress.switch_open", 0, 1)
        self.cli("mirroring_add 100 %d" % CPU_PORT)

    def request(self, op, req_id, key, server_host, value=b"", **extension):
        return pegasus(CLIENT, server_host, CLIENT_PORT, PEGASUS_PORT, op, req_id, key, value=value, **extension)


class ClosedSwitchDropsClientRequests(DirectoryTest):
    """P-0: until the controller opens it, the switch drops client requests and counts PEG_DROP_CLOSED."""

    def runTest(self):
        self.send(10, self.request(READ, 1, "bravo", 2))
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.pegasus_drop_count", PEG_DROP_CLOSED), 1)


class UnreplicatedWriteStampedAndSentHome(DirectoryTest):
    """P-1: a write of a key outside the directory gets the next version (1, then 2) and goes to its home
    flagged DETECTOR; P-2: a read of it goes home unchanged."""

    def runTest(self):
        self.open_switch()
        for req_id, version in ((1, 1), (2, 2)):
            self.send(10, self.request(WRITE, req_id, "bravo", 2, value=b"b%d" % req_id))
            self.expect(pegasus(CLIENT, 2, CLIENT_PORT, PEGASUS_PORT, WRITE, req_id, "bravo", seq=version,
                                value=b"b%d" % req_id, pflags=DETECTOR), 2)
        read = self.request(READ, 3, "bravo", 2)
        self.send(10, read)
        self.expect(read, 2)
        self.expect_nothing_else()


class AddKeyFromTheControllerActivatesTheKey(DirectoryTest):
    """P-3: ADD_KEY on the CPU port puts the key in the directory with rset = {home} and
    ver_completed = ver_next - 1, and is answered to the CPU port in the same pass."""

    def runTest(self):
        self.open_switch()
        self.table_add("MyIngress.rkeys", "MyIngress.set_dir_index", ["0x" + key16("alpha").hex()], [5])
        self.send(10, self.request(WRITE, 1, "alpha", 1, value=b"a1"))
        self.expect(pegasus(CLIENT, 1, CLIENT_PORT, PEGASUS_PORT, WRITE, 1, "alpha", seq=1, value=b"a1",
                            pflags=DETECTOR), 1)
        self.send(CPU_PORT, pegasus(CONTROLLER, CONTROLLER, CLIENT_PORT, PEGASUS_PORT, ADD_KEY, 1, "alpha", server=1))
        self.expect(pegasus(CONTROLLER, CONTROLLER, PEGASUS_PORT, CLIENT_PORT, ADD_KEY_REPLY, 1, "alpha", seq=1,
                            server=1), CPU_PORT)
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.ver_completed", 5), 1)
        self.assertEqual(self.register_read("MyIngress.rset_bitmap", 5), 1)   # {h1}: server index 0
        self.assertEqual(self.register_read("MyIngress.key_state", 5), 1)     # ACTIVE


class DirectoryCommandsOnlyFromTheCpuPort(DirectoryTest):
    """P-17: an ADD_KEY arriving from a client port is dropped (PEG_DROP_BAD_CONTROL) and changes nothing."""

    def runTest(self):
        self.open_switch()
        self.table_add("MyIngress.rkeys", "MyIngress.set_dir_index", ["0x" + key16("alpha").hex()], [5])
        self.send(10, pegasus(CLIENT, CONTROLLER, CLIENT_PORT, PEGASUS_PORT, ADD_KEY, 1, "alpha", server=1))
        self.expect_nothing_else()
        self.assertEqual(self.register_read("MyIngress.pegasus_drop_count", PEG_DROP_BAD_CONTROL), 1)
        self.assertEqual(self.register_read("MyIngress.key_state", 5), 0)
