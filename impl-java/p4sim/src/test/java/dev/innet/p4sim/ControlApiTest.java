package dev.innet.p4sim;

import static dev.innet.p4sim.TestPrograms.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.CounterValue;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.Replica;
import dev.innet.switchapi.SwitchControl;
import dev.innet.p4sim.v1model.P4Switch;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The in-process control API: effects on packets, reads, and bad requests that must change nothing. */
class ControlApiTest {
    private static final BigInteger ONE = BigInteger.ONE;

    private static P4Switch tables() {
        return P4Sim.compile(TestPrograms.stf("tables.p4")).instantiate();
    }

    private static EntrySpec exact(long k8, String action, long v) {
        return new EntrySpec("exact_t", List.of(Match.exact(k8)), 0, action, List.of(BigInteger.valueOf(v)));
    }

    private static String eField(P4Switch sw, int k8) {
        byte[] in = hex("00" + String.format("%02x", k8) + "0000 00000000 000000000000000000000000");
        return hex(sw.process(0, in).get(0).frame()).substring(16, 18);
    }

    private static void rejected(String fragment, Executable request) {
        ControlException e = assertThrows(ControlException.class, request);
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
    }

    @Test
    void addModifyReadDelete() {
        P4Switch sw = tables();
        SwitchControl c = sw.control();
        c.addEntry(exact(0x10, "set_e", 0x42));
        assertEquals("42", eField(sw, 0x10));
        c.modifyEntry(exact(0x10, "I.set_e", 0x43));
        assertEquals("43", eField(sw, 0x10));
        assertEquals(List.of(new EntrySpec("I.exact_t", List.of(Match.exact(0x10)), 0, "I.set_e", List.of(BigInteger.valueOf(0x43)))),
                c.readEntries("exact_t"));
        assertEquals(new CounterValue(2, 40), c.directCounterRead("exact_t", List.of(Match.exact(0x10)), 0));
        c.deleteEntry("I.exact_t", List.of(Match.exact(0x10)), 0);
        assertEquals("00", eField(sw, 0x10));
        assertEquals(List.of(), c.readEntries("exact_t"));
    }

    @Test
    void defaultActionCanBeChangedUnlessConst() {
        P4Switch sw = tables();
        SwitchControl c = sw.control();
        c.setDefaultAction("exact_t", "set_e", List.of(BigInteger.valueOf(0x5A)));
        assertEquals("5a", eField(sw, 0x77));
        assertEquals("I.set_e", c.readDefaultAction("exact_t").action());
        rejected("const default_action", () -> c.setDefaultAction("const_t", "set_c", List.of(ONE)));
    }

    @Test
    void badRequestsAreRejectedAndChangeNothing() {
        P4Switch sw = tables();
        SwitchControl c = sw.control();
        c.addEntry(exact(0x10, "set_e", 0x42));
        rejected("unknown table 'nope'", () -> c.addEntry(new EntrySpec("nope", List.of(), 0, "set_e", List.of())));
        rejected("does not fit key field 'hdr.h.k8'", () -> c.addEntry(exact(0x100, "set_e", 1)));
        rejected("has 1 key field(s), got 2", () -> c.addEntry(new EntrySpec("exact_t", List.of(Match.exact(1), Match.exact(2)), 0, "set_e", List.of(ONE))));
        rejected("not an action of table", () -> c.addEntry(exact(0x11, "set_t", 1)));
        rejected("takes 1 argument(s), got 0", () -> c.addEntry(new EntrySpec("exact_t", List.of(Match.exact(0x11)), 0, "set_e", List.of())));
        rejected("does not fit argument 'v'", () -> c.addEntry(exact(0x11, "set_e", 256)));
        rejected("already exists", () -> c.addEntry(exact(0x10, "set_e", 1)));
        rejected("ternary match given", () -> c.addEntry(new EntrySpec("exact_t", List.of(Match.ternary(1, 1)), 0, "set_e", List.of(ONE))));
        rejected("wildcard given for exact", () -> c.addEntry(new EntrySpec("exact_t", List.of(new Match.Wildcard()), 0, "set_e", List.of(ONE))));
        rejected("priority must not be given", () -> c.addEntry(new EntrySpec("exact_t", List.of(Match.exact(3)), 5, "set_e", List.of(ONE))));
        rejected("need a priority", () -> c.addEntry(new EntrySpec("tern_t", List.of(Match.ternary(1, 0xFFFF)), 0, "set_t", List.of(ONE))));
        rejected("bits outside the mask", () -> c.addEntry(new EntrySpec("tern_t", List.of(Match.ternary(0xF1, 0xF0)), 1, "set_t", List.of(ONE))));
        rejected("beyond the /8 prefix", () -> c.addEntry(new EntrySpec("lpm_t", List.of(Match.lpm(0x0a000001L, 8)), 0, "set_l", List.of(ONE))));
        rejected("low end above high end", () -> c.addEntry(new EntrySpec("range_t", List.of(Match.range(9, 3), Match.exact(1)), 1, "set_rg", List.of(ONE))));
        rejected("const entries", () -> c.addEntry(new EntrySpec("const_t", List.of(Match.exact(9)), 0, "set_c", List.of(ONE))));
        rejected("no entry with this match", () -> c.deleteEntry("exact_t", List.of(Match.exact(0x33)), 0));
        rejected("no entry with this match", () -> c.modifyEntry(exact(0x33, "set_e", 1)));
        // nothing changed
        assertEquals(1, c.readEntries("exact_t").size());
        assertEquals(0, c.readEntries("tern_t").size());
        assertEquals(0, c.readEntries("lpm_t").size());
        assertEquals(0, c.readEntries("range_t").size());
        assertEquals(2, c.readEntries("const_t").size());
        assertEquals("42", eField(sw, 0x10));
    }

    @Test
    void registersAndCountersWithRangeChecks() {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("externs.p4")).instantiate();
        SwitchControl c = sw.control();
        c.registerWrite("r64", 3, BigInteger.valueOf(77));
        c.registerWrite("I.r64", 5, 7, BigInteger.TWO);
        assertEquals(List.of(BigInteger.ZERO, BigInteger.valueOf(77), BigInteger.ZERO, BigInteger.TWO, BigInteger.TWO, BigInteger.TWO),
                c.registerRead("r64", 2, 7));
        BigInteger wide = new BigInteger("0123456789abcdef0123456789abcdef", 16);
        c.registerWrite("r128", 1, wide);
        assertEquals(wide, c.registerRead("r128", 1));
        rejected("index 8 out of range [0, 7]", () -> c.registerRead("r64", 8));
        rejected("index -1 out of range", () -> c.registerWrite("r64", -1, ONE));
        rejected("does not fit register", () -> c.registerWrite("r64", 0, ONE.shiftLeft(64)));
        rejected("unknown register 'nope'", () -> c.registerRead("nope", 0));
        assertEquals(BigInteger.valueOf(77), c.registerRead("r64", 3));
        c.registerReset("r64");
        assertEquals(BigInteger.ZERO, c.registerRead("r64", 3));
        sw.process(0, hex("00 00000001 3132333435363738"));
        assertEquals(new CounterValue(1, 13), c.counterRead("c", 1));
        rejected("index 8 out of range", () -> c.counterRead("c", 8));
        c.counterReset("c");
        assertEquals(new CounterValue(0, 0), c.counterRead("c", 1));
    }

    @Test
    void defaultOnlyAndTableOnlyActionsAreEnforced() {
        String program = """
                #include <v1model.p4>
                header h_t { bit<8> a; }
                struct headers { h_t h; }
                struct metadata { }
                parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
                    state start { pkt.extract(hdr.h); transition accept; }
                }
                control VC(inout headers hdr, inout metadata m) { apply { } }
                control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
                    action d() { }
                    action e() { }
                    table t { key = { hdr.h.a : exact; } actions = { @defaultonly d; @tableonly e; } default_action = d(); }
                    apply { t.apply(); }
                }
                control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
                control CC(inout headers hdr, inout metadata m) { apply { } }
                control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }
                V1Switch(P(), VC(), I(), E(), CC(), D()) main;
                """;
        SwitchControl c = P4Sim.compileText("t.p4", program).instantiate().control();
        rejected("@defaultonly", () -> c.addEntry(new EntrySpec("t", List.of(Match.exact(1)), 0, "d", List.of())));
        rejected("@tableonly", () -> c.setDefaultAction("t", "e", List.of()));
        c.addEntry(new EntrySpec("t", List.of(Match.exact(1)), 0, "e", List.of()));
        c.setDefaultAction("t", "d", List.of());
    }

    @Test
    void multicastAndCloneSessionValidation() {
        SwitchControl c = tables().control();
        rejected("multicast group 0 out of range", () -> c.multicastGroupSet(0, List.of()));
        rejected("replica port 600 out of range", () -> c.multicastGroupSet(1, List.of(new Replica(600, 1))));
        rejected("does not exist", () -> c.multicastGroupDelete(9));
        rejected("clone session port 511 out of range", () -> c.cloneSessionSet(1, 511));
        rejected("does not exist", () -> c.cloneSessionDelete(3));
        c.multicastGroupSet(1, List.of(new Replica(1, 1)));
        c.multicastGroupDelete(1);
        c.cloneSessionSet(1, 2);
        c.cloneSessionDelete(1);
    }
}
