package dev.innet.p4sim;

import static dev.innet.p4sim.TestPrograms.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.cli.CliSession;
import dev.innet.p4sim.cli.ControlServer;
import dev.innet.p4sim.cli.RemoteSwitchControl;
import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.CounterValue;
import dev.innet.switchapi.Digest;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.PacketIn;
import dev.innet.switchapi.Replica;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import java.math.BigInteger;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The SwitchControl interface driven over a p4sim control port, as a controller in another process would. */
class RemoteControlTest {
    /** Action profile members and selector groups over the control port (selection as in ActionProfileTest). */
    @Test
    void actionProfilesOverTheControlPort() throws Exception {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("profiles.p4")).instantiate();
        try (ControlServer server = new ControlServer(0, new CliSession(sw), sw);
             RemoteSwitchControl c = new RemoteSwitchControl(server.port())) {
            int m0 = c.actionProfileAddMember("I.prof_t", "set1", List.of(BigInteger.valueOf(0x11)));
            assertEquals(0, m0);
            c.addIndirectEntry("I.prof_t", List.of(Match.exact(5)), 0, m0, false);
            int a = c.actionProfileAddMember("sel", "set2", List.of(BigInteger.valueOf(0xA0), BigInteger.TWO));
            int b = c.actionProfileAddMember("sel", "set2", List.of(BigInteger.valueOf(0xB1), BigInteger.valueOf(3)));
            int g = c.actionProfileCreateGroup("sel");
            c.actionProfileAddMemberToGroup("sel", a, g);
            c.actionProfileAddMemberToGroup("sel", b, g);
            c.addIndirectEntry("I.sel_t", List.of(Match.ternary(5, 0xFF)), 1, g, true);
            synchronized (sw) {
                // flow 1: crc16 0xc0c1, odd: the second member
                List<P4Switch.OutPacket> out = sw.process(0, hex("0500010000"));
                assertEquals(3, out.get(0).port());
                assertEquals("05000111b1", TestPrograms.hex(out.get(0).frame()));
            }
            c.actionProfileModifyMember("sel", b, "set2", List.of(BigInteger.valueOf(0xB2), BigInteger.valueOf(3)));
            c.actionProfileRemoveMemberFromGroup("sel", a, g);
            synchronized (sw) {
                assertEquals("05000011b2", TestPrograms.hex(sw.process(0, hex("0500000000")).get(0).frame()));
            }
            ControlException e = assertThrows(ControlException.class, () -> c.actionProfileDeleteGroup("sel", g));
            assertTrue(e.getMessage().contains("is used by an entry"), e.getMessage());
            c.actionProfileDeleteMember("sel", a);
            c.setIndirectDefault("I.prof_t", m0, false);
            synchronized (sw) {
                // prof_t misses k = 9 and runs its default, now member 0; sel_t misses too (NoAction)
                assertEquals("0900001100", TestPrograms.hex(sw.process(0, hex("0900000000")).get(0).frame()));
            }
        }
    }

    @Test
    void tablesRegistersAndCountersOverTheControlPort() throws Exception {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("tables.p4")).instantiate();
        List<String> writes = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ControlServer server = new ControlServer(0, new CliSession(sw), sw);
             RemoteSwitchControl c = new RemoteSwitchControl(server.port())) {
            server.observeWrites(command -> writes.add(command.split(" ", 2)[0]));
            c.addEntry(new EntrySpec("exact_t", List.of(Match.exact(0x10)), 0, "set_e", List.of(BigInteger.valueOf(0x42))));
            EntrySpec tern = new EntrySpec("tern_t", List.of(Match.ternary(0x1200, 0xFF00)), 7, "set_t", List.of(BigInteger.ONE));
            c.addEntry(tern);
            c.addEntry(new EntrySpec("range_t", List.of(Match.range(1, 9), Match.exact(0x1234)), 3, "set_rg", List.of(BigInteger.TWO)));
            assertEquals(List.of(new EntrySpec("tern_t", tern.match(), 7, "I.set_t", List.of(BigInteger.ONE))), c.readEntries("tern_t"));
            assertEquals(List.of(new EntrySpec("range_t", List.of(Match.range(1, 9), Match.exact(0x1234)), 3, "I.set_rg", List.of(BigInteger.TWO))),
                    c.readEntries("range_t"));
            c.modifyEntry(new EntrySpec("exact_t", List.of(Match.exact(0x10)), 0, "set_e", List.of(BigInteger.valueOf(0x43))));
            synchronized (sw) {
                byte[] out = sw.process(0, hex("0010 0000 00000000 000000000000000000000000")).get(0).frame();
                assertEquals(0x43, out[8] & 0xFF);
            }
            assertEquals(new CounterValue(1, 20), c.directCounterRead("exact_t", List.of(Match.exact(0x10)), 0));
            c.deleteEntry("tern_t", tern.match(), 7);
            assertEquals(List.of(), c.readEntries("tern_t"));
            c.setDefaultAction("exact_t", "set_e", List.of(BigInteger.valueOf(5)));
            assertEquals(new EntrySpec("exact_t", List.of(), 0, "I.set_e", List.of(BigInteger.valueOf(5))), c.readDefaultAction("exact_t"));
            ControlException e = assertThrows(ControlException.class,
                    () -> c.addEntry(new EntrySpec("exact_t", List.of(Match.exact(0x10)), 0, "set_e", List.of(BigInteger.ONE))));
            assertTrue(e.getMessage().contains("already exists"), e.getMessage());
            c.multicastGroupSet(3, List.of(new Replica(1, 2)));
            c.multicastGroupDelete(3);
            c.cloneSessionSet(4, 5);
            c.cloneSessionDelete(4);
        }
        // every call above that changed the switch is reported as a write (p4sim --trace-frames' switchControl lines,
        // which a live rack's merge places controller steps by), the reads and the refused add are not
        assertEquals(List.of("p4sim_table_add", "p4sim_table_add", "p4sim_table_add", "p4sim_table_modify",
                "p4sim_table_delete", "table_set_default", "p4sim_mc_group_set", "p4sim_mc_group_delete", "mirroring_add",
                "mirroring_delete"), writes);
    }

    @Test
    void registersCountersPacketOutPacketInAndDigests() throws Exception {
        P4Switch ext = P4Sim.compile(TestPrograms.stf("externs.p4")).instantiate();
        List<String> writes = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ControlServer server = new ControlServer(0, new CliSession(ext), ext);
             RemoteSwitchControl c = new RemoteSwitchControl(server.port())) {
            server.observeWrites(command -> writes.add(command.split(" ", 2)[0]));
            BigInteger wide = new BigInteger("fedcba98765432100123456789abcdef", 16);
            c.registerWrite("r128", 0, 3, wide);
            assertEquals(List.of(wide, wide), c.registerRead("r128", 2, 3));
            c.registerReset("r128");
            assertEquals(BigInteger.ZERO, c.registerRead("r128", 1));
            c.counterWrite("c", 2, new CounterValue(7, 70));
            assertEquals(new CounterValue(7, 70), c.counterRead("c", 2));
        }
        assertEquals(List.of("p4sim_register_write", "register_reset", "counter_write"), writes);
        P4Switch sw = P4Sim.compile(TestPrograms.stf("packetpath.p4")).instantiate(SwitchConfig.defaults().withCpuPort(255));
        try (ControlServer server = new ControlServer(0, new CliSession(sw), sw);
             RemoteSwitchControl c = new RemoteSwitchControl(server.port())) {
            LinkedBlockingQueue<PacketIn> ins = new LinkedBlockingQueue<>();
            LinkedBlockingQueue<Digest> digests = new LinkedBlockingQueue<>();
            c.onPacketIn(ins::add);
            c.onDigest(digests::add);
            c.packetOut(hex("000000000001 0000000000aa 0009 ab"));   // digest case, forwarded to port 2
            c.packetOut(hex("000000000001 000000000009 0007 ab"));   // sent to the CPU port: a packet-in
            Digest d = digests.poll(5, TimeUnit.SECONDS);
            assertEquals(new Digest(1, List.of(BigInteger.valueOf(0xaa), BigInteger.valueOf(9))), d);
            PacketIn p = ins.poll(5, TimeUnit.SECONDS);
            assertEquals("0000000000010000000000090007" + "00" + "0000" + "ff" + "0000" + "ab", TestPrograms.hex(p.frame()));
        }
    }
}
