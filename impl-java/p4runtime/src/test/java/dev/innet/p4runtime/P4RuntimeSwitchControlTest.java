package dev.innet.p4runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.CounterValue;
import dev.innet.switchapi.Digest;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.PacketIn;
import dev.innet.switchapi.Replica;
import java.math.BigInteger;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** innet's SwitchControl over P4Runtime, against p4sim's P4Runtime server: what a controller would call. */
class P4RuntimeSwitchControlTest {
    private static final byte[] ETH = HexFormat.of().parseHex("0000000000aa" + "0000000000bb" + "0800" + "cafe");

    private static BigInteger big(long v) {
        return BigInteger.valueOf(v);
    }

    @Test
    void tablesRegistersCountersAndReplicationThroughP4Runtime() throws Exception {
        try (TestSwitch ts = new TestSwitch();
             P4RuntimeSwitchControl c = new P4RuntimeSwitchControl("127.0.0.1", ts.server.port(), 1, 7)) {
            EntrySpec e = new EntrySpec("fwd", List.of(Match.exact(0xaa)), 0, "set_port", List.of(big(3)));
            c.addEntry(e);
            assertEquals(List.of(new EntrySpec("MyIngress.fwd", List.of(Match.exact(0xaa)), 0, "MyIngress.set_port", List.of(big(3)))),
                    c.readEntries("MyIngress.fwd"));
            c.modifyEntry(new EntrySpec("fwd", List.of(Match.exact(0xaa)), 0, "to_cpu", List.of()));
            assertEquals("MyIngress.to_cpu", c.readEntries("fwd").getFirst().action());
            EntrySpec acl = new EntrySpec("acl", List.of(Match.ternary(0x0800, 0xff00), Match.lpm(0xbb, 48)), 5, "drop", List.of());
            c.addEntry(acl);
            assertEquals(5, c.readEntries("acl").getFirst().priority());
            c.deleteEntry("acl", acl.match(), 5);
            assertTrue(c.readEntries("acl").isEmpty());
            // the server's checks come back as ControlExceptions with its message
            var dup = assertThrows(ControlException.class, () -> c.addEntry(new EntrySpec("fwd", List.of(Match.exact(0xaa)), 0, "drop", List.of())));
            assertTrue(dup.getMessage().contains("already exists"), dup.getMessage());
            var wide = assertThrows(ControlException.class, () -> c.addEntry(new EntrySpec("fwd", List.of(Match.exact(0xbb)), 0, "set_port", List.of(big(512)))));
            assertTrue(wide.getMessage().contains("does not fit in 9 bits"), wide.getMessage());
            assertThrows(ControlException.class, () -> c.readEntries("no_such_table"));

            c.setDefaultAction("fwd", "set_port", List.of(big(2)));
            assertEquals(List.of(big(2)), c.readDefaultAction("fwd").args());
            c.clearTable("fwd");
            assertTrue(c.readEntries("fwd").isEmpty());

            c.registerWrite("last_type", 2, 4, big(9));
            assertEquals(List.of(big(0), big(9), big(9), big(9), big(0)), c.registerRead("last_type", 1, 5));
            c.registerReset("last_type");
            assertEquals(big(0), c.registerRead("last_type", 3));
            synchronized (ts.sw) {
                ts.sw.process(5, ETH);
            }
            assertEquals(new CounterValue(1, ETH.length), c.counterRead("port_in", 5));
            c.counterReset("port_in");
            assertEquals(new CounterValue(0, 0), c.counterRead("port_in", 5));

            c.multicastGroupSet(3, List.of(new Replica(1, 0), new Replica(2, 1)));
            c.multicastGroupSet(3, List.of(new Replica(4, 0))); // a second set replaces the group
            c.cloneSessionSet(5, 6);
            c.cloneSessionDelete(5);
            c.multicastGroupDelete(3);
            assertThrows(ControlException.class, () -> c.multicastGroupDelete(3));
        }
    }

    @Test
    void wholeFramesGoOutAndComeBackWithTheirControllerHeaders() throws Exception {
        try (TestSwitch ts = new TestSwitch();
             P4RuntimeSwitchControl c = new P4RuntimeSwitchControl("127.0.0.1", ts.server.port(), 1, 7)) {
            LinkedBlockingQueue<PacketIn> in = new LinkedBlockingQueue<>();
            LinkedBlockingQueue<Digest> digests = new LinkedBlockingQueue<>();
            c.onPacketIn(in::add);
            c.onDigest(digests::add);
            // packet_out header: egress_port 64 (9 bits) + 7 bits of padding = 0x2000, then the Ethernet frame
            byte[] out = new byte[2 + ETH.length];
            out[0] = 0x20;
            System.arraycopy(ETH, 0, out, 2, ETH.length);
            c.packetOut(out);
            PacketIn p = in.poll(10, TimeUnit.SECONDS);
            assertNotNull(p, "no packet-in");
            assertArrayEquals(out, p.frame()); // packet_in header: ingress_port 64, the same bits
            synchronized (ts.sw) {
                ts.sw.process(4, ETH); // the learned table misses: a digest
            }
            Digest d = digests.poll(10, TimeUnit.SECONDS);
            assertNotNull(d, "no digest");
            assertEquals(List.of(big(0xbb), big(4)), d.values());
        }
    }

    @Test
    void aSecondControllerWithALowerElectionIdIsRefused() throws Exception {
        try (TestSwitch ts = new TestSwitch();
             P4RuntimeSwitchControl first = new P4RuntimeSwitchControl("127.0.0.1", ts.server.port(), 1, 7)) {
            var e = assertThrows(ControlException.class, () -> new P4RuntimeSwitchControl("127.0.0.1", ts.server.port(), 1, 3));
            assertTrue(e.getMessage().contains("another P4Runtime client is the primary"), e.getMessage());
            first.addEntry(new EntrySpec("fwd", List.of(Match.exact(1)), 0, "drop", List.of()));
            var wrongDevice = assertThrows(ControlException.class, () -> new P4RuntimeSwitchControl("127.0.0.1", ts.server.port(), 2, 9));
            assertTrue(wrongDevice.getMessage().contains("no device 2"), wrongDevice.getMessage());
        }
    }

    /**
     * Every operation innet's controllers call (table add/modify/delete/read/clear, register read/write/reset
     * and ranges, clone sessions) refuses bad input with a ControlException carrying the server's message, and
     * the switch is as it was: entries and register cells are read back after each refusal, through P4Runtime
     * and through p4sim's own control API.
     */
    @Test
    void refusedOperationsSayWhyAndChangeNothing() throws Exception {
        try (TestSwitch ts = new TestSwitch();
             P4RuntimeSwitchControl c = new P4RuntimeSwitchControl("127.0.0.1", ts.server.port(), 1, 7)) {
            EntrySpec kept = new EntrySpec("MyIngress.fwd", List.of(Match.exact(0xaa)), 0, "MyIngress.set_port", List.of(big(3)));
            c.addEntry(kept);
            c.registerWrite("last_type", 0, 7, big(5));
            List<EntrySpec> entries = c.readEntries("fwd");
            List<BigInteger> cells = c.registerRead("last_type", 0, 7);
            assertEquals(List.of(kept), entries);

            refused(c, ts, entries, cells, "already exists",
                    () -> c.addEntry(new EntrySpec("fwd", List.of(Match.exact(0xaa)), 0, "drop", List.of())));
            refused(c, ts, entries, cells, "no_such_action",
                    () -> c.addEntry(new EntrySpec("fwd", List.of(Match.exact(0xcc)), 0, "no_such_action", List.of())));
            refused(c, ts, entries, cells, "does not fit in 48 bits",
                    () -> c.addEntry(new EntrySpec("fwd", List.of(Match.exact(1L << 48)), 0, "drop", List.of())));
            refused(c, ts, entries, cells, "priorit",
                    () -> c.addEntry(new EntrySpec("acl", List.of(Match.ternary(0x0800, 0xff00), Match.lpm(0xbb, 48)), 0, "drop", List.of())));
            refused(c, ts, entries, cells, "NOT_FOUND: no entry with this match",
                    () -> c.modifyEntry(new EntrySpec("fwd", List.of(Match.exact(0xdd)), 0, "drop", List.of())));
            refused(c, ts, entries, cells, "NOT_FOUND: no entry with this match", () -> c.deleteEntry("fwd", List.of(Match.exact(0xdd)), 0));
            refused(c, ts, entries, cells, "unknown table 'no_such_table'", () -> c.clearTable("no_such_table"));
            refused(c, ts, entries, cells, "does not fit in 32 bits",
                    () -> c.registerWrite("last_type", 2, BigInteger.ONE.shiftLeft(32)));
            refused(c, ts, entries, cells, "index 8 outside 0..7", () -> c.registerWrite("last_type", 8, big(1)));
            // a range that runs past the end is one batch: the cells inside it are not written either
            refused(c, ts, entries, cells, "index 8 outside 0..7", () -> c.registerWrite("last_type", 6, 9, big(1)));
            refused(c, ts, entries, cells, "index 8 outside 0..7", () -> c.registerRead("last_type", 8));
            refused(c, ts, entries, cells, "unknown register 'no_such_register'", () -> c.registerRead("no_such_register", 0));
            refused(c, ts, entries, cells, "unknown register 'no_such_register'", () -> c.registerReset("no_such_register"));
        }
    }

    /** {@code op} throws a ControlException whose message contains {@code why}; the entries and cells are unchanged. */
    private static void refused(P4RuntimeSwitchControl c, TestSwitch ts, List<EntrySpec> entries, List<BigInteger> cells,
            String why, org.junit.jupiter.api.function.Executable op) {
        var e = assertThrows(ControlException.class, op);
        assertTrue(e.getMessage().toLowerCase().contains(why.toLowerCase()), "the message says why: " + e.getMessage());
        assertEquals(entries, c.readEntries("fwd"), "unchanged after: " + e.getMessage());
        assertTrue(c.readEntries("acl").isEmpty(), "unchanged after: " + e.getMessage());
        assertEquals(cells, c.registerRead("last_type", 0, 7), "unchanged after: " + e.getMessage());
        synchronized (ts.sw) {
            // the switch itself, not only what P4Runtime reports
            assertEquals(1, ts.sw.control().readEntries("MyIngress.fwd").size());
            assertEquals(cells, ts.sw.control().registerRead("MyIngress.last_type", 0, 7));
        }
    }

    @Test
    void aDeadStreamChannelIsReportedAndLaterCallsFailClearly() throws Exception {
        TestSwitch ts = new TestSwitch();
        int port = ts.server.port();
        try (P4RuntimeSwitchControl c = new P4RuntimeSwitchControl("127.0.0.1", port, 1, 7)) {
            LinkedBlockingQueue<String> ended = new LinkedBlockingQueue<>();
            c.onStreamEnd(ended::add);
            c.addEntry(new EntrySpec("fwd", List.of(Match.exact(0xaa)), 0, "set_port", List.of(big(3))));
            assertEquals(null, c.streamEnded());
            ts.close(); // the switch's server goes away
            String why = ended.poll(10, TimeUnit.SECONDS);
            assertNotNull(why, "the end of the StreamChannel was not reported in 10 s");
            assertTrue(why.contains("StreamChannel to 127.0.0.1:" + port + " ended"), why);
            assertEquals(why, c.streamEnded());
            for (Runnable call : List.<Runnable>of(
                    () -> c.addEntry(new EntrySpec("fwd", List.of(Match.exact(0xbb)), 0, "to_cpu", List.of())),
                    () -> c.readEntries("fwd"),
                    () -> c.packetOut(ETH))) {
                var e = assertThrows(ControlException.class, call::run);
                assertTrue(e.getMessage().contains("no longer the switch's primary"), e.getMessage());
            }
            // a listener added late hears it at once
            LinkedBlockingQueue<String> late = new LinkedBlockingQueue<>();
            c.onStreamEnd(late::add);
            assertEquals(why, late.poll());
        }
    }
}
