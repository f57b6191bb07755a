#!/usr/bin/env python3
"""Random differential scenarios for netcache.p4 and farreach.p4.

A reference model of the case tables of docs/p4-programs.md (sections 4 and 5), written from the
document and not from the P4 code, drives a random sequence of client requests, synthetic server
replies and control-plane register writes, and writes the packets the switch must emit as an STF file
(format: p4/tests/README.md). Running the STF against the program compares program and document on
thousands of packets, including states no hand-written scenario reaches.

    python3 p4/tests/random_stf.py farreach 7 400 > /tmp/fr7.stf   # program, seed, steps

Deterministic for a given seed; sampling stays at its default (every request counted).
"""
import random
import sys
import zlib

import gen_stf as g

CLIENTS = {1: 1, 3: 3}            # host -> port
SEQ_SLOTS, CMS_WIDTH = 32768, 65536
SALTS = [0x00000000, 0x9e3779b9, 0x7f4a7c15, 0x5bd1e995]
LENGTHS = [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 100, 120, 127, 128, 129, 200]


def slot(k):
    return zlib.crc32(k) % SEQ_SLOTS


def cms_cells(k):
    return [(r, zlib.crc32(k + s.to_bytes(4, "big")) % CMS_WIDTH) for r, s in enumerate(SALTS)]


class Record:
    def __init__(self, value, seq, latest):
        self.valid = True
        self.latest = latest
        self.deleted = False
        self.evicting = False
        self.seq = seq
        self.value = value
        self.saved_epoch = 0
        self.seen = 0         # record_seen_seq: the highest seq of the key seen since admission (FR-18)
        self.floor = 0        # record_fill_floor: the probed server seq, FLOOR_UNKNOWN before the probe


class NetCacheRecord:
    """netcache.p4's registers of a cached key (p4-programs.md NC-*): record_seq is the cached seq while
    valid and the staged write's seq while invalid (0: nothing staged)."""
    def __init__(self, floor):
        self.valid = False
        self.seq = 0
        self.value = b""
        self.seen = 0         # record_seen_seq: every write numbered and every server reply since admission
        self.floor = floor    # record_fill_floor: the probed server seq, FLOOR_UNKNOWN before the probe

    def refresh_bound(self, seen_before):
        """NC-7/NC-8: a reply makes the record valid only at or above the fill floor and everything seen
        of the key before it (FLOOR_UNKNOWN is above every seq)."""
        return max(self.floor, seen_before)


FLOOR_UNKNOWN = 0xFFFFFFFF


class Model:
    def __init__(self, program, rnd, stf):
        self.program = program
        self.rnd = rnd
        self.t = stf
        # "k0-slot78239" shares k0's sequence-counter slot: another key's writes then raise the slot's
        # counter above k0's own writes; neither program's fill rule may depend on the slot's counter
        self.keys = [g.key(n) for n in ("k0", "k1", "k2", "k3", "k4", "k5", "k0-slot78239")]
        self.index = {}           # key -> cache index (lookup entries)
        self.rec = {}             # key -> Record (farreach) / NetCacheRecord (netcache)
        self.ctr = {}             # seq slot -> last assigned
        self.cms = {}             # (row, cell) -> count
        self.epoch = 0
        self.req = 0
        self.pending = []         # forwarded requests a synthetic server may answer: (op, key, req, host)

    # ---- helpers ----------------------------------------------------------------------------
    def value(self):
        n = self.rnd.choice(LENGTHS)
        return bytes(self.rnd.randrange(256) for _ in range(n))

    def req_frame(self, host, msg):
        return g.frame(host, g.SERVER, g.CLIENT_UDP, g.KV_PORT, msg)

    def reply_frame(self, host, msg):
        return g.frame(g.SERVER, host, g.KV_PORT, g.CLIENT_UDP, msg)

    def count_uncached(self, k):
        cells = cms_cells(k)
        for c in cells:
            self.cms[c] = self.cms.get(c, 0) + 1
        return min(self.cms[c] for c in cells) >= g_threshold()

    # ---- control plane ----------------------------------------------------------------------
    def admit(self, k):
        idx = len(self.index) + 3
        value = self.value()[:128]
        seq = self.rnd.choice([0, self.ctr.get(slot(k), 0)])
        t = self.t
        t.comment("admit %s at %d" % (k.rstrip(b"\0").decode(), idx))
        # the fill floor as the probe (or farreach's recovery, or a preload) leaves it: a server seq around
        # the slot's counter, or still unknown (the probe has not returned)
        floor = self.rnd.choice([0, max(0, self.ctr.get(slot(k), 0) - 1), self.ctr.get(slot(k), 0),
                                 FLOOR_UNKNOWN])
        if self.program == "farreach":
            latest = self.rnd.random() < 0.5
            t.reg("record_valid", idx, 0)
            t.install_value(idx, value)
            t.reg("record_seq", idx, seq)
            t.reg("record_latest", idx, int(latest))
            t.reg("record_deleted", idx, 0)
            t.reg("record_evicting", idx, 0)
            t.reg("record_saved_epoch", idx, self.epoch)
            t.reg("record_seen_seq", idx, 0)
            t.reg("record_fill_floor", idx, floor)
            t.lookup(k, idx)
            t.reg("record_valid", idx, 1)
            r = Record(value, seq, latest)
            r.saved_epoch = self.epoch
            r.floor = floor
            self.rec[k] = r
        else:
            t.reg("record_valid", idx, 0)
            t.reg("record_seq", idx, 0)
            t.reg("record_seen_seq", idx, 0)
            t.reg("record_fill_floor", idx, floor)
            t.lookup(k, idx)
            self.rec[k] = NetCacheRecord(floor)
        self.index[k] = idx

    def control_step(self):
        r = self.rnd.random()
        uncached = [k for k in self.keys if k not in self.index]
        if r < 0.3 and uncached:
            self.admit(self.rnd.choice(uncached))
        elif self.program == "farreach" and r < 0.6 and self.index:
            k = self.rnd.choice(list(self.index))
            v = int(not self.rec[k].evicting)
            self.t.reg("record_evicting", self.index[k], v)
            self.rec[k].evicting = bool(v)
        elif self.program == "farreach":
            self.epoch = self.rnd.choice([0, self.epoch + 1])
            self.t.reg("snapshot_epoch", 0, self.epoch)
        elif self.index:
            # netcache: an admission's probe returns and the controller writes the fill floor
            k = self.rnd.choice(list(self.index))
            floor = self.rnd.choice([0, max(0, self.ctr.get(slot(k), 0) - 1), self.ctr.get(slot(k), 0)])
            self.t.reg("record_fill_floor", self.index[k], floor)
            self.rec[k].floor = floor

    # ---- packets ----------------------------------------------------------------------------
    def client_step(self):
        host = self.rnd.choice(list(CLIENTS))
        k = self.rnd.choice(self.keys)
        op = self.rnd.choice([g.GET, g.GET, g.PUT, g.PUT, g.DEL])
        self.req += 1
        req = self.req
        value = self.value() if op == g.PUT else b""
        self.t.packet(CLIENTS[host], self.req_frame(host, g.innet(op, k, req, value=value)))
        if self.program == "farreach":
            self.farreach_request(host, op, k, req, value)
        else:
            self.netcache_request(host, op, k, req, value)

    def numbered(self, op, k):
        s = slot(k)
        self.ctr[s] = self.ctr.get(s, 0) + 1
        return (g.PUT_SEQ if op == g.PUT else g.DEL_SEQ), self.ctr[s]

    def forward(self, host, op, k, req, seq=0, value=b"", flags=0, count=True):
        if count and self.count_uncached(k):
            flags |= g.HOT
        self.t.expect(2, self.req_frame(host, g.innet(op, k, req, seq=seq, value=value, flags=flags)))
        if op in (g.GET_FOR_CACHE, g.PUT_SEQ, g.DEL_SEQ):
            self.pending.append((op, k, req, host))

    def answer(self, host, msg):
        self.t.expect(CLIENTS[host], self.reply_frame(host, msg))

    def farreach_request(self, host, op, k, req, value):
        seq = 0
        if op != g.GET:
            op, seq = self.numbered(op, k)
        r = self.rec.get(k)
        if r is None or not r.valid:
            self.forward(host, op, k, req, seq, value)
            return
        parsed = len(value) <= 128
        if op != g.GET:
            r.seen = max(r.seen, seq)
        if op == g.GET:
            if r.latest:
                if r.deleted:
                    self.answer(host, g.innet(g.GET_REPLY, k, req, seq=r.seq, status=g.NOT_FOUND, flags=g.FROM_SWITCH))
                else:
                    self.answer(host, g.innet(g.GET_REPLY, k, req, seq=r.seq, value=r.value, flags=g.FROM_SWITCH))
            elif not r.evicting:
                self.forward(host, g.GET_FOR_CACHE, k, req, count=False)
            else:
                self.forward(host, g.GET_EMBED, k, req, seq=r.seq, value=b"" if r.deleted else r.value,
                             flags=g.DELETED if r.deleted else 0, count=False)
            return
        if not r.evicting and (op == g.DEL_SEQ or parsed):
            self.report_original(k, req, r)
            r.latest, r.seq = True, seq
            if op == g.PUT_SEQ:
                r.deleted, r.value = False, value
                self.answer(host, g.innet(g.PUT_REPLY, k, req, seq=seq, flags=g.FROM_SWITCH))
            else:
                r.deleted, r.value = True, b""
                self.answer(host, g.innet(g.DEL_REPLY, k, req, seq=seq, flags=g.FROM_SWITCH))
        else:
            r.latest, r.evicting = False, True    # FR-8 keeps E = 1; FR-9 sets it (embedding)
            self.forward(host, op, k, req, seq, value, count=False)

    def report_original(self, k, req, r):
        if self.epoch != 0 and r.saved_epoch != self.epoch:
            r.saved_epoch = self.epoch
            msg = g.innet(g.SNAPSHOT_ORIGINAL, k, req, seq=r.seq, value=b"" if r.deleted else r.value,
                          flags=g.DELETED if r.deleted else 0)
            self.t.expect(64, g.snapshot_original(msg))

    def netcache_request(self, host, op, k, req, value):
        seq = 0
        if op != g.GET:
            op, seq = self.numbered(op, k)
        r = self.rec.get(k)
        if r is None:
            self.forward(host, op, k, req, seq, value)
            return
        if op == g.GET:
            if r.valid:
                self.answer(host, g.innet(g.GET_REPLY, k, req, seq=r.seq, value=r.value, flags=g.FROM_SWITCH))
            else:
                self.forward(host, g.GET_FOR_CACHE, k, req, count=False)
            return
        # NC-4/NC-6: invalidate, stage (nothing for a DEL or a value above 128 bytes), and see the write
        r.valid = False
        r.seen = max(r.seen, seq)
        if op == g.PUT_SEQ and len(value) <= 128:
            r.seq, r.value = seq, value
        else:
            r.seq = 0
        self.forward(host, op, k, req, seq, value, count=False)

    def server_step(self):
        """A synthetic server answers one forwarded request (any order, any seq)."""
        if not self.pending:
            return
        op, k, req, host = self.pending.pop(self.rnd.randrange(len(self.pending)))
        bound = self.ctr.get(slot(k), 0)
        seq = max(0, bound - self.rnd.choice([0, 0, 1, 2]))
        if op == g.GET_FOR_CACHE:
            status = self.rnd.choice([g.OK, g.OK, g.NOT_FOUND])
            value = self.value() if status == g.OK else b""
            flags = g.DELETED if status == g.NOT_FOUND and self.rnd.random() < 0.5 else 0
            self.t.packet(2, self.reply_frame(host, g.innet(g.GET_FOR_CACHE_REPLY, k, req, seq=seq, value=value,
                                                               status=status, flags=flags)))
            self.get_for_cache_reply(k, req, seq, status, value)
            self.answer(host, g.innet(g.GET_REPLY, k, req, seq=seq, value=value, status=status, flags=flags))
        else:
            reply_op = g.PUT_REPLY if op == g.PUT_SEQ else g.DEL_REPLY
            self.t.packet(2, self.reply_frame(host, g.innet(reply_op, k, req, seq=seq)))
            if self.program == "farreach":
                self.farreach_sees_reply(k, seq)
            else:
                self.netcache_sees_reply(k, reply_op, seq, g.OK, b"")
            self.answer(host, g.innet(reply_op, k, req, seq=seq))

    def get_for_cache_reply(self, k, req, seq, status, value):
        parsed = len(value) <= 128
        r = self.rec.get(k)
        if self.program == "farreach":
            seen_before = r.seen if r is not None else 0
            if (r is not None and r.valid and not r.latest and not r.evicting and parsed
                    and status in (g.OK, g.NOT_FOUND) and r.floor != FLOOR_UNKNOWN
                    and seq >= r.floor and seq >= seen_before):
                self.report_original(k, req, r)
                r.latest, r.seq = True, seq
                r.deleted = status == g.NOT_FOUND
                r.value = value if status == g.OK else b""
                r.seen = max(seen_before, seq)
            else:
                self.farreach_sees_reply(k, seq)
        else:
            self.netcache_sees_reply(k, g.GET_FOR_CACHE_REPLY, seq, status, value)

    def netcache_sees_reply(self, k, op, seq, status, value):
        """A server reply of a cached key passes netcache.p4: it is seen; a newer reply invalidates a valid
        record (NC-11); an invalid record is committed by its staged write's PUT_REPLY (NC-7) or refilled
        by a GET_FOR_CACHE_REPLY (NC-8), either only at or above the refresh bound."""
        r = self.rec.get(k)
        if r is None:
            return
        seen_before = r.seen
        r.seen = max(r.seen, seq)
        bound = r.refresh_bound(seen_before)
        if r.valid:
            if seq > r.seq:
                r.valid = False
        elif op == g.PUT_REPLY:
            if status == g.OK and r.seq != 0 and seq == r.seq and seq >= bound:
                r.valid = True
        elif op == g.GET_FOR_CACHE_REPLY:
            if status == g.OK and len(value) <= 128 and seq >= bound:
                r.valid, r.seq, r.value = True, seq, value


    def farreach_sees_reply(self, k, seq):
        """FR-18: a server reply of a cached key raises what the switch has seen of it, and makes a latest
        record older than it outdated."""
        r = self.rec.get(k)
        if r is None:
            return
        r.seen = max(r.seen, seq)
        if r.valid and r.latest and seq > r.seq:
            r.latest = False


def g_threshold():
    return 20


def main():
    program, seed, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rnd = random.Random(seed)
    t = g.Stf("%s.p4, random scenario seed %d, %d steps (p4/tests/random_stf.py)" % (program, seed, steps))
    t.routes()
    t.cmd("add MyIngress.ipv4_forward hdr.ipv4.dst_addr:0x0a000003 MyIngress.set_egress_port(port:3)")
    if program == "farreach":
        t.cmd("mirroring_add %d %d" % (g.CPU_CLONE_SESSION, 64))
    m = Model(program, rnd, t)
    for step in range(1, steps + 1):
        # Marks where each step's commands begin: a runner that matches outputs step by step (p4sim's
        # RandomStfCheck) can then name the step a failure belongs to. Other runners ignore comments.
        t.cmd("# step %d" % step)
        x = rnd.random()
        if x < 0.08:
            m.control_step()
        elif x < 0.65:
            m.client_step()
        else:
            m.server_step()
    print("\n".join(t.lines))


if __name__ == "__main__":
    main()
