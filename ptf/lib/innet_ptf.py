"""Shared pieces of innet's PTF tests (docs/ptf.md): the switch's control channel, the innet header as a
scapy layer, rack addressing, and a base test class that starts every test from a clean switch.

The control channel speaks bmv2's runtime-CLI commands only (table_add, register_write, register_read,
mirroring_add, reset_state, ...), so the same tests run on p4sim (its CLI port, TCP) and on bmv2
(simple_switch_CLI over Thrift). Test parameters (ptf --test-params) say which:
  target=p4sim;control=127.0.0.1:PORT    or    target=bmv2;thrift=PORT;cli=simple_switch_CLI
"""
import os
import re
import socket
import subprocess

import ptf
from ptf.base_tests import BaseTest
from ptf import testutils
from scapy.all import Ether, IP, UDP, Packet, bind_layers
from scapy.fields import ByteField, IntField, ShortField, StrFixedLenField, XByteField

KV_PORT = 5008          # key-value family (FarReach, NetCache, no-cache): docs/wire-format.md §1
FARREACH_CTL_PORT = 5009
PEGASUS_PORT = 5010
VISIBILITY_PORT = 5011
DISTCACHE_PORT = 5012
MEMCACHED_PORT = 11211
CLIENT_PORT = 40000     # a client's ephemeral port, as in p4/tests/gen_stf.py's frames
CPU_PORT = 64           # the programs' CPU/controller port (host 254)

# flags (docs/wire-format.md §3)
FROM_SWITCH = 0x01
DELETED = 0x02
HOT = 0x04
# statuses (§2.2)
OK = 0
NOT_FOUND = 1


class ControlError(Exception):
    """The switch refused a control command; the message is the switch's."""


def mac(host):
    return "02:00:00:00:00:%02x" % host


def ip(host):
    return "10.0.0.%d" % host


class Innet(Packet):
    """The 32-byte innet application header (docs/wire-format.md §2); extension and value follow as payload."""
    name = "innet"
    fields_desc = [
        XByteField("magic", 0xA1),
        XByteField("op", 0),
        XByteField("flags", 0),
        ByteField("status", 0),
        IntField("req_id", 0),
        StrFixedLenField("key", b"\x00" * 16, 16),
        IntField("seq", 0),
        ShortField("vallen", 0),
        ShortField("extlen", 0),
    ]


for _port in (KV_PORT, FARREACH_CTL_PORT, PEGASUS_PORT, VISIBILITY_PORT, DISTCACHE_PORT):
    bind_layers(UDP, Innet, dport=_port)
    bind_layers(UDP, Innet, sport=_port)


def key16(text):
    """An application key as the client library sends it: left-aligned, zero-padded to 16 bytes."""
    raw = text.encode() if isinstance(text, str) else text
    assert len(raw) <= 16, "keys are at most 16 bytes"
    return raw + b"\x00" * (16 - len(raw))


def padded(value):
    """A value zero-padded to a multiple of 8 bytes (§2: the parsers extract 8-byte words)."""
    return value + b"\x00" * (-len(value) % 8)


def frame(src, dst, sport, dport, innet, extension=b"", value=b""):
    """One innet message from host src to host dst, framed as every innet node frames it (§1)."""
    innet.vallen = len(value)
    innet.extlen = len(extension)
    return (Ether(src=mac(src), dst=mac(dst)) / IP(src=ip(src), dst=ip(dst), id=0, flags="DF", ttl=64)
            / UDP(sport=sport, dport=dport, chksum=0) / innet / (extension + padded(value)))


def value_words(value):
    """A cached value as the switch stores it: 64-bit big-endian words (register value_word_NN)."""
    data = padded(value)
    return [int.from_bytes(data[i:i + 8], "big") for i in range(0, len(data), 8)]


class CliPort:
    """p4sim's control port: one bmv2 CLI command per line; the reply is its output lines then 'ok' or 'error: ...'."""

    def __init__(self, address):
        host, port = address.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        self.reader = self.sock.makefile("r")

    def run(self, command):
        self.sock.sendall((command + "\n").encode())
        lines = []
        while True:
            line = self.reader.readline()
            if not line:
                raise ControlError("the control port closed during '%s'" % command)
            line = line.rstrip("\n")
            if line == "ok":
                return lines
            if line.startswith("error:"):
                raise ControlError("%s: %s" % (command, line[len("error:"):].strip()))
            lines.append(line)

    def close(self):
        self.sock.close()


class SimpleSwitchCli:
    """bmv2's simple_switch_CLI, one process for the whole test: commands go to its standard input and its output
    is read up to the next 'RuntimeCmd: ' prompt (PYTHONUNBUFFERED, or Python would keep the prompt in its pipe
    buffer). A process per command, as some of bmv2's scripts do, costs a Python start and a JSON download from
    the switch each time.

    simple_switch_CLI prints a refused command's error (e.g. 'Error: Invalid table name') and goes on, so the
    output is searched for the error shapes bmv2 prints."""

    PROMPT = "RuntimeCmd: "
    ERROR = re.compile(r"^(Error|Invalid|\*\*\* Unknown syntax|.*[Ee]xception)", re.M)

    def __init__(self, cli, thrift_port):
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([cli, "--thrift-port", str(thrift_port)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        banner = self._read_to_prompt()
        if not banner.endswith(self.PROMPT):
            raise ControlError("simple_switch_CLI --thrift-port %s exited: %s" % (thrift_port, banner.strip()))

    def _read_to_prompt(self):
        data = b""
        prompt = self.PROMPT.encode()
        while True:
            c = self.proc.stdout.read(1)
            if not c:
                return data.decode(errors="replace")
            data += c
            if data.endswith(prompt) and (len(data) == len(prompt) or data[-len(prompt) - 1:-len(prompt)] == b"\n"):
                return data.decode(errors="replace")

    def run(self, command):
        try:
            self.proc.stdin.write((command + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise ControlError("%s: simple_switch_CLI has exited" % command)
        reply = self._read_to_prompt()
        if not reply.endswith(self.PROMPT):
            raise ControlError("%s: simple_switch_CLI exited: %s" % (command, reply.strip()))
        text = reply[:-len(self.PROMPT)]
        bad = [l for l in text.splitlines() if self.ERROR.match(l)]
        if bad:
            raise ControlError("%s: %s" % (command, "; ".join(bad)))
        return [l for l in text.splitlines() if l.strip()]

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def open_control():
    target = testutils.test_param_get("target", "p4sim")
    if target == "p4sim":
        return CliPort(testutils.test_param_get("control", "127.0.0.1:9090"))
    if target == "bmv2":
        return SimpleSwitchCli(testutils.test_param_get("cli", "simple_switch_CLI"),
                               int(testutils.test_param_get("thrift", "9090")))
    raise ValueError("unknown target '%s' (p4sim or bmv2)" % target)


class SwitchTest(BaseTest):
    """A PTF test on one switch: setUp resets its state (bmv2's reset_state) so every test starts from an empty
    switch, whatever ran before it; helpers program it through the bmv2 CLI commands both targets speak."""

    def setUp(self):
        BaseTest.setUp(self)
        self.dataplane = ptf.dataplane_instance
        self.dataplane.flush()
        self.control = open_control()
        self.control.run("reset_state")

    def tearDown(self):
        self.control.close()
        BaseTest.tearDown(self)

    def cli(self, command):
        return self.control.run(command)

    def table_add(self, table, action, keys, args=()):
        """Adds an entry; returns its handle (bmv2: 'Entry has been added with handle N')."""
        out = self.cli("table_add %s %s %s => %s" % (table, action, " ".join(str(k) for k in keys),
                                                     " ".join(str(a) for a in args)))
        for line in out:
            m = re.search(r"handle (\d+)", line)
            if m:
                return int(m.group(1))
        return None

    def register_write(self, register, index, value):
        self.cli("register_write %s %d %d" % (register, index, value))

    def register_read(self, register, index):
        """One register cell (bmv2 prints 'NAME[I]= V')."""
        for line in self.cli("register_read %s %d" % (register, index)):
            m = re.search(r"\]=\s*(\d+)", line)
            if m:
                return int(m.group(1))
        raise ControlError("register_read %s %d: no value in the reply" % (register, index))

    def route(self, hosts_to_ports):
        """The rack's forwarding (Forwarding in the Java switch OS): host h at 10.0.0.h leaves on its port."""
        for host, port in hosts_to_ports.items():
            self.table_add("MyIngress.ipv4_forward", "MyIngress.set_egress_port", ["0x%08x" % (0x0A000000 | host)], [port])

    def send(self, port, pkt):
        testutils.send_packet(self, port, pkt)

    def expect(self, pkt, port):
        testutils.verify_packet(self, pkt, port)

    def expect_nothing_else(self):
        testutils.verify_no_other_packets(self)


class CacheTest(SwitchTest):
    """A switch with an in-switch key-value cache (netcache.p4, farreach.p4): client h1 on port 1, server h2 on
    port 2, the controller (h254) on the CPU port; records admitted as the controller admits them."""

    CLIENT, SERVER = 1, 2

    def setUp(self):
        SwitchTest.setUp(self)
        self.route({self.CLIENT: 1, self.SERVER: 2, 254: CPU_PORT})

    def admit(self, index, key, value, seq, **flags):
        """The admission procedure (docs/p4-programs.md, FarReach §3.2 Fig. 4): invalidate the index, write the
        record (and any per-record flag registers given, e.g. record_latest=1), install the lookup entry, then
        validate."""
        self.register_write("MyIngress.record_valid", index, 0)
        for i, word in enumerate(value_words(value)):
            self.register_write("MyIngress.value_word_%02d" % i, index, word)
        self.register_write("MyIngress.record_vallen", index, len(value))
        self.register_write("MyIngress.record_seq", index, seq)
        for register, bit in flags.items():
            self.register_write("MyIngress." + register, index, bit)
        self.table_add("MyIngress.cache_lookup", "MyIngress.set_cache_index", ["0x" + key16(key).hex()], [index])
        self.register_write("MyIngress.record_valid", index, 1)

    def request(self, op, req_id, key, value=b"", seq=0, flags=0):
        return frame(self.CLIENT, self.SERVER, CLIENT_PORT, KV_PORT,
                     Innet(op=op, req_id=req_id, key=key16(key), seq=seq, flags=flags), value=value)

    def server_reply(self, op, req_id, key, value=b"", seq=0, status=OK, flags=0):
        return frame(self.SERVER, self.CLIENT, KV_PORT, CLIENT_PORT,
                     Innet(op=op, req_id=req_id, key=key16(key), seq=seq, status=status, flags=flags), value=value)

    def switch_reply(self, op, req_id, key, value=b"", seq=0, status=OK, flags=FROM_SWITCH):
        """A reply the switch writes itself: the server's addresses as source, out of the client's port."""
        return self.server_reply(op, req_id, key, value=value, seq=seq, status=status, flags=flags)
