package dev.innet.p4sim.bmv2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.cli.CliSession;
import dev.innet.p4sim.cli.ControlServer;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.CounterValue;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import java.math.BigInteger;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bmv2 driver's use of simple_switch_CLI, without bmv2: the repository's stand-in simple_switch_CLI
 * (ptf/tests/bmv2-standin, which talks to the port like the real one talks Thrift, prompts included) in front of
 * p4sim's control port, whose bmv2-compatible commands answer as bmv2 does. Every call is checked against the
 * switch's own state or a packet through it.
 */
class Bmv2CliControlTest {
    private static final String PKT = "00000000000100000000000208004500001c00004000401125cb0a0000020a0001051111222233334444";

    static Path root() {
        String r = System.getProperty("innet.root");
        return Path.of(r == null ? "../.." : r).toAbsolutePath().normalize();
    }

    static Path standinCli() {
        return root().resolve("ptf/tests/bmv2-standin/simple_switch_CLI");
    }

    private static P4Switch basic() throws URISyntaxException {
        return P4Sim.compile(Path.of(Bmv2CliControlTest.class.getResource("/stf/basic.p4").toURI())).instantiate();
    }

    private static int portOut(P4Switch sw) {
        synchronized (sw) {
            List<P4Switch.OutPacket> out = sw.process(1, HexFormat.of().parseHex(PKT));
            return out.isEmpty() ? -1 : out.get(0).port();
        }
    }

    @Test
    void tablesRegistersCountersAndClonesGoThroughTheCli() throws Exception {
        P4Switch sw = basic();
        try (ControlServer server = new ControlServer(0, new CliSession(sw), sw);
             Bmv2CliControl bmv2 = new Bmv2CliControl(standinCli(), server.port())) {
            List<Match> slash24 = List.of(new Match.Lpm(BigInteger.valueOf(0x0a000100L), 24));
            EntrySpec entry = new EntrySpec("MyIngress.ipv4_lpm", slash24, 0, "MyIngress.ipv4_forward",
                    List.of(BigInteger.valueOf(0x0a0b0c0d0e0fL), BigInteger.valueOf(3)));
            bmv2.addEntry(entry);
            assertEquals(3, portOut(sw));
            assertEquals(List.of(entry), bmv2.readEntries("MyIngress.ipv4_lpm"));

            bmv2.modifyEntry(new EntrySpec("MyIngress.ipv4_lpm", slash24, 0, "MyIngress.ipv4_forward",
                    List.of(BigInteger.valueOf(0x0a0b0c0d0e0fL), BigInteger.valueOf(6))));
            assertEquals(6, portOut(sw));
            bmv2.setDefaultAction("MyIngress.ipv4_lpm", "MyIngress.drop", List.of());
            assertEquals("MyIngress.drop", bmv2.readDefaultAction("MyIngress.ipv4_lpm").action());
            bmv2.deleteEntry("MyIngress.ipv4_lpm", slash24, 0);
            assertEquals(-1, portOut(sw));
            assertEquals(List.of(), bmv2.readEntries("MyIngress.ipv4_lpm"));

            bmv2.registerWrite("MyIngress.last_seen", 2, BigInteger.valueOf(0x77));
            bmv2.registerWrite("MyIngress.last_seen", 4, 5, BigInteger.TEN);
            assertEquals(BigInteger.valueOf(0x77), bmv2.registerRead("MyIngress.last_seen", 2));
            assertEquals(List.of(BigInteger.valueOf(0x77), BigInteger.ZERO, BigInteger.TEN, BigInteger.TEN),
                    bmv2.registerRead("MyIngress.last_seen", 2, 5));
            synchronized (sw) {
                assertEquals(BigInteger.TEN, sw.control().registerRead("MyIngress.last_seen", 5));
            }
            bmv2.registerReset("MyIngress.last_seen");
            assertEquals(BigInteger.ZERO, bmv2.registerRead("MyIngress.last_seen", 2));

            assertEquals(new CounterValue(3, 126), bmv2.counterRead("MyIngress.port_packets", 1));
            bmv2.counterReset("MyIngress.port_packets");
            assertEquals(new CounterValue(0, 0), bmv2.counterRead("MyIngress.port_packets", 1));

            bmv2.cloneSessionSet(100, 64);
            bmv2.cloneSessionDelete(100);
        }
    }

    @Test
    void entriesAddedByAnotherClientAreFoundThroughTableDump() throws Exception {
        P4Switch sw = basic();
        CliSession session = new CliSession(sw);
        try (ControlServer server = new ControlServer(0, session, sw);
             Bmv2CliControl bmv2 = new Bmv2CliControl(standinCli(), server.port())) {
            synchronized (sw) {
                session.execute("table_add MyIngress.ipv4_lpm MyIngress.ipv4_forward 10.0.1.0/24 => 00:00:00:00:00:01 3");
                session.execute("table_add MyIngress.ipv4_lpm MyIngress.ipv4_forward 10.0.1.5/32 => 00:00:00:00:00:02 4");
            }
            assertEquals(4, portOut(sw));
            bmv2.deleteEntry("MyIngress.ipv4_lpm", List.of(new Match.Lpm(BigInteger.valueOf(0x0a000105L), 32)), 0);
            assertEquals(3, portOut(sw));
        }
    }

    @Test
    void refusalsAreControlExceptionsAndChangeNothing() throws Exception {
        P4Switch sw = basic();
        try (ControlServer server = new ControlServer(0, new CliSession(sw), sw);
             Bmv2CliControl bmv2 = new Bmv2CliControl(standinCli(), server.port())) {
            ControlException e = assertThrows(ControlException.class, () -> bmv2.registerRead("MyIngress.nope", 1));
            assertTrue(e.getMessage().contains("register_read MyIngress.nope 1") && e.getMessage().contains("nope"), e.getMessage());
            assertThrows(ControlException.class, () -> bmv2.addEntry(new EntrySpec("MyIngress.ipv4_lpm",
                    List.of(new Match.Lpm(BigInteger.ONE, 24)), 0, "MyIngress.ipv4_forward", List.of(BigInteger.ONE))));
            assertEquals(List.of(), bmv2.readEntries("MyIngress.ipv4_lpm"));
            e = assertThrows(ControlException.class, () -> bmv2.deleteEntry("MyIngress.ipv4_lpm",
                    List.of(new Match.Lpm(BigInteger.ONE, 32)), 0));
            assertTrue(e.getMessage().contains("has no entry"), e.getMessage());
            e = assertThrows(ControlException.class, () -> bmv2.packetOut(new byte[60]));
            assertTrue(e.getMessage().contains("no packet-out"), e.getMessage());
            e = assertThrows(ControlException.class, () -> bmv2.meterRead("MyIngress.nope", 0));
            assertTrue(e.getMessage().contains("meter_get_rates MyIngress.nope 0"), e.getMessage());
        }
    }

    @Test
    void aCliThatCannotStartIsAnIoErrorNamingWhy() throws Exception {
        Path fake = Files.createTempFile("simple_switch_CLI", "");
        Files.writeString(fake, "#!/bin/sh\necho 'Could not connect to thrift client on port 1'\nexit 1\n");
        fake.toFile().setExecutable(true);
        java.io.IOException e = assertThrows(java.io.IOException.class, () -> new Bmv2CliControl(fake, 1).close());
        assertTrue(e.getMessage().contains("Could not connect"), e.getMessage());
        Files.delete(fake);
    }
}
