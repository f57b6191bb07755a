package dev.innet.p4sim;

import static dev.innet.p4sim.TestPrograms.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.cli.CliSession;
import dev.innet.p4sim.cli.ControlServer;
import dev.innet.p4sim.cli.RemoteSwitchControl;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Parser value sets through the control API and bmv2's runtime-CLI commands (pvs_*), on stf/valueset.p4. */
class ValueSetControlTest {
    /**
     * The path the parser took for a packet {ethertype, 02 01}: 0 default, 2 through the 'types' set,
     * 3 also through 'pairs'. The output is eth, then two (when parsed) or the payload, then res.path.
     */
    private static String pathFor(P4Switch sw, String ethertype) {
        String out = hex(sw.process(0, hex(ethertype + "0201")).get(0).frame());
        boolean twoParsed = out.substring(4, 8).equals("0201");
        return twoParsed ? out.substring(8, 10) : out.substring(4, 6);
    }

    private static BigInteger big(long v) {
        return BigInteger.valueOf(v);
    }

    private static void rejected(String fragment, Executable request) {
        ControlException e = assertThrows(ControlException.class, request);
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
    }

    @Test
    void addReadRemoveClearChangeTheParse() {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("valueset.p4")).instantiate();
        SwitchControl c = sw.control();
        assertEquals("00", pathFor(sw, "abcd"));
        c.valueSetAdd("types", big(0xabcd));
        c.valueSetAdd("P.types", big(0xabcd)); // again, by the qualified name: no change, as in bmv2
        assertEquals(List.of(big(0xabcd)), c.valueSetRead("types"));
        assertEquals("02", pathFor(sw, "abcd"));
        c.valueSetRemove("types", big(0xabcd));
        c.valueSetRemove("types", big(0x1111)); // not a member: no change, as in bmv2
        assertEquals("00", pathFor(sw, "abcd"));
        c.valueSetAdd("types", big(1));
        c.valueSetAdd("types", big(2));
        c.valueSetClear("types");
        assertEquals(List.of(), c.valueSetRead("types"));
    }

    @Test
    void badRequestsAreRejectedAndChangeNothing() {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("valueset.p4")).instantiate();
        SwitchControl c = sw.control();
        c.valueSetAdd("types", big(0x0800));
        c.valueSetAdd("types", big(0x86dd));
        rejected("value set P.types is full (size 2)", () -> c.valueSetAdd("types", big(0x1234)));
        rejected("does not fit in the 16 bits of value set P.types", () -> c.valueSetAdd("types", big(0x10000)));
        rejected("does not fit in the 16 bits", () -> c.valueSetRemove("types", big(-1)));
        rejected("unknown parser value set 'nope'", () -> c.valueSetAdd("nope", big(1)));
        assertEquals(List.of(big(0x0800), big(0x86dd)), c.valueSetRead("types"));
        assertEquals("00", pathFor(sw, "1234"));
    }

    @Test
    void overTheControlPort() throws Exception {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("valueset.p4")).instantiate();
        try (ControlServer server = new ControlServer(0, new CliSession(sw), sw);
             RemoteSwitchControl c = new RemoteSwitchControl(server.port())) {
            c.valueSetAdd("types", big(0xabcd));
            c.valueSetAdd("pairs", big(0x0201));
            assertEquals(List.of(big(0x0201)), c.valueSetRead("P.pairs"));
            synchronized (sw) {
                assertEquals("03", pathFor(sw, "abcd"));
            }
            c.valueSetRemove("pairs", big(0x0201));
            c.valueSetClear("types");
            assertEquals(List.of(), c.valueSetRead("types"));
            rejected("full", () -> {
                c.valueSetAdd("types", big(1));
                c.valueSetAdd("types", big(2));
                c.valueSetAdd("types", big(3));
            });
            rejected("negative value set member", () -> c.valueSetAdd("types", big(-1)));
            assertEquals(List.of(big(1), big(2)), c.valueSetRead("types"));
        }
    }

    @Test
    void runtimeCliCommands() {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("valueset.p4")).instantiate();
        CliSession cli = new CliSession(sw);
        cli.execute("pvs_add P.types 0xabcd");
        cli.execute("pvs_add pairs 0x0201");
        assertEquals(List.of("abcd"), cli.execute("pvs_get types"));
        cli.execute("pvs_add types 0x0800");
        assertEquals(List.of("abcd", "0800"), cli.execute("pvs_get types")); // whole bytes, as bmv2 prints them
        cli.execute("pvs_remove types 0x800");
        assertEquals(List.of("P.types (16 bits, size 2)", "P.pairs (16 bits, size 4)"), cli.execute("show_pvs"));
        // 0xabcd is in 'types' and (2, 1) in 'pairs': path 3
        assertEquals("03", pathFor(sw, "abcd"));
        cli.execute("pvs_remove pairs 0x0201");
        assertEquals("02", pathFor(sw, "abcd"));
        cli.execute("pvs_clear types");
        assertEquals(List.of(), cli.execute("pvs_get types"));
        assertThrows(ControlException.class, () -> cli.execute("pvs_add types"));
        rejected("unknown parser value set 'x'", () -> cli.execute("pvs_get x"));
    }
}
