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
}
