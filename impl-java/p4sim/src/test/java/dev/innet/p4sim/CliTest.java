package dev.innet.p4sim;

import static dev.innet.p4sim.TestPrograms.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.cli.CliClient;
import dev.innet.p4sim.cli.CliSession;
import dev.innet.p4sim.cli.ControlServer;
import dev.innet.switchapi.ControlException;
import dev.innet.p4sim.v1model.P4Switch;
import java.util.List;
import org.junit.jupiter.api.Test;

/** bmv2 runtime-CLI commands, in-process and over the control port. */
class CliTest {
    private static final String PKT = "00000000000100000000000208004500001c00004000401125cb0a0000020a0001051111222233334444";

    @Test
    void commandsFileDrivesTheSwitch() {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("basic.p4")).instantiate();
        CliSession cli = new CliSession(sw);
        // the shape of a p4lang tutorial sN-commands.txt
        String commands = """
                table_set_default MyIngress.ipv4_lpm MyIngress.drop
                table_add MyIngress.ipv4_lpm MyIngress.ipv4_forward 10.0.1.0/24 => 0a:0b:0c:0d:0e:0f 3
                table_add MyIngress.ipv4_lpm MyIngress.ipv4_forward 10.0.1.5/32 => 00:00:00:00:01:05 4
                register_write MyIngress.last_seen 2 0x77
                """;
        for (String l : commands.split("\n")) {
            cli.execute(l);
        }
        List<P4Switch.OutPacket> out = sw.process(1, hex(PKT));
        assertEquals(1, out.size());
        assertEquals(4, out.get(0).port());
        assertEquals(List.of("MyIngress.last_seen[2]= 119"), cli.execute("register_read MyIngress.last_seen 2"));
        assertEquals(List.of("2"), cli.execute("table_num_entries MyIngress.ipv4_lpm"));
        List<String> dump = cli.execute("table_dump MyIngress.ipv4_lpm");
        assertTrue(dump.contains("* hdr.ipv4.dstAddr : LPM a000105/32"), dump.toString());
        cli.execute("table_delete MyIngress.ipv4_lpm 1");
        assertEquals(3, sw.process(1, hex(PKT)).get(0).port());
        cli.execute("table_modify MyIngress.ipv4_lpm MyIngress.ipv4_forward 0 0x0a0b0c0d0e0f 6");
        assertEquals(6, sw.process(1, hex(PKT)).get(0).port());
        assertEquals(List.of("MyIngress.port_packets[1]=  BmCounterValue(packets=3, bytes=126)"),
                cli.execute("counter_read MyIngress.port_packets 1"));
    }

    @Test
    void resetStateClearsEntriesRegistersCountersAndHandles() {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("basic.p4")).instantiate();
        CliSession cli = new CliSession(sw);
        cli.execute("table_set_default MyIngress.ipv4_lpm MyIngress.drop");
        cli.execute("table_add MyIngress.ipv4_lpm MyIngress.ipv4_forward 10.0.1.0/24 => 0a:0b:0c:0d:0e:0f 3");
        cli.execute("table_add MyIngress.ipv4_lpm MyIngress.ipv4_forward 10.0.1.5/32 => 00:00:00:00:01:05 4");
        cli.execute("register_write MyIngress.last_seen 2 0x77");
        assertEquals(4, sw.process(1, hex(PKT)).get(0).port());

        assertEquals(List.of(), cli.execute("reset_state"));

        assertEquals(List.of("0"), cli.execute("table_num_entries MyIngress.ipv4_lpm"));
        assertEquals(List.of("MyIngress.last_seen[2]= 0"), cli.execute("register_read MyIngress.last_seen 2"));
        assertEquals(List.of("MyIngress.port_packets[1]=  BmCounterValue(packets=0, bytes=0)"),
                cli.execute("counter_read MyIngress.port_packets 1"));
        // the kept default action (drop) now applies; handles count from 0 again, as after loading the program
        assertEquals(List.of(), sw.process(1, hex(PKT)));
        cli.execute("table_add MyIngress.ipv4_lpm MyIngress.ipv4_forward 10.0.1.0/24 => 0a:0b:0c:0d:0e:0f 5");
        cli.execute("table_delete MyIngress.ipv4_lpm 0");
        assertEquals(List.of("0"), cli.execute("table_num_entries MyIngress.ipv4_lpm"));
    }

    @Test
    void badCommandsAreRejectedWithoutEffect() {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("basic.p4")).instantiate();
        CliSession cli = new CliSession(sw);
        assertThrows(ControlException.class, () -> cli.execute("table_add nope x 1 => 2"));
        ControlException e = assertThrows(ControlException.class,
                () -> cli.execute("table_add MyIngress.ipv4_lpm MyIngress.ipv4_forward 10.0.1.0 => 1 2"));
        assertTrue(e.getMessage().contains("value/prefix_length"), e.getMessage());
        e = assertThrows(ControlException.class,
                () -> cli.execute("table_add MyIngress.ipv4_lpm MyIngress.ipv4_forward 10.0.1.0/24 => 1"));
        assertTrue(e.getMessage().contains("takes 2 parameter(s), got 1"), e.getMessage());
        e = assertThrows(ControlException.class, () -> cli.execute("register_write MyIngress.last_seen 64 1"));
        assertTrue(e.getMessage().contains("index 64 out of range [0, 63]"), e.getMessage());
        e = assertThrows(ControlException.class, () -> cli.execute("table_delete MyIngress.ipv4_lpm 0"));
        assertTrue(e.getMessage().contains("invalid handle 0"), e.getMessage());
        assertThrows(ControlException.class, () -> cli.execute("frobnicate"));
        assertEquals(List.of("0"), cli.execute("table_num_entries MyIngress.ipv4_lpm"));
    }

    /**
     * bmv2 numbers handles per table: the lowest free slot in the low 24 bits, the slot's version (one
     * more after each delete) in the high 8 bits; table_clear starts over (bm_sim/match_units.cpp).
     */
    @Test
    void entryHandlesAreNumberedAsBmv2NumbersThem() {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("tables.p4")).instantiate();
        CliSession cli = new CliSession(sw);
        assertEquals(List.of("Entry has been added with handle 0"), cli.execute("table_add exact_t set_e 0x01 => 1"));
        assertEquals(List.of("Entry has been added with handle 1"), cli.execute("table_add exact_t set_e 0x02 => 2"));
        // another table counts from 0 too
        assertEquals(List.of("Entry has been added with handle 0"), cli.execute("table_add lpm_t set_l 10.0.0.0/8 => 8"));
        cli.execute("table_delete exact_t 0");
        // slot 0 is free again, with version 1: 0x01000000
        assertEquals(List.of("Entry has been added with handle 16777216"), cli.execute("table_add exact_t set_e 0x03 => 3"));
        assertEquals(List.of("Entry has been added with handle 2"), cli.execute("table_add exact_t set_e 0x04 => 4"));
        // the old handle of slot 0 is stale; the new one works
        ControlException e = assertThrows(ControlException.class, () -> cli.execute("table_delete exact_t 0"));
        assertTrue(e.getMessage().contains("invalid handle 0"), e.getMessage());
        cli.execute("table_modify exact_t set_e 16777216 9");
        List<String> dump = cli.execute("table_dump exact_t");
        assertTrue(dump.contains("Dumping entry 0x1000000"), dump.toString());
        cli.execute("table_clear exact_t");
        assertEquals(List.of("Entry has been added with handle 0"), cli.execute("table_add exact_t set_e 0x05 => 5"));
    }

    @Test
    void controlPortServesAnotherProcessStyleClient() throws Exception {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("basic.p4")).instantiate();
        try (ControlServer server = new ControlServer(0, new CliSession(sw), sw);
             CliClient client = new CliClient(server.port())) {
            assertEquals(List.of("Entry has been added with handle 0"),
                    client.command("table_add ipv4_lpm ipv4_forward 10.0.1.5/32 => 0x0a0b0c0d0e0f 4"));
            ControlException e = assertThrows(ControlException.class, () -> client.command("register_read nope 1"));
            assertTrue(e.getMessage().contains("unknown register 'nope'"), e.getMessage());
            assertEquals(List.of("1"), client.command("table_num_entries ipv4_lpm"));
            synchronized (sw) {
                assertEquals(4, sw.process(1, hex(PKT)).get(0).port());
            }
        }
    }
}
