package dev.innet.p4sim;

import static dev.innet.p4sim.TestPrograms.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.coverage.Coverage;
import dev.innet.p4sim.coverage.CoveragePoint;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Coverage points of a small program with known branches: what is reported, and how exercising changes it. */
class CoverageTest {
    private static final String PROGRAM = """
            #include <v1model.p4>
            header h_t { bit<8> k; bit<8> v; }
            struct headers { h_t h; }
            struct metadata { bit<8> stored; }
            parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
                state start {
                    pkt.extract(hdr.h);
                    transition select(hdr.h.k) {
                        0: accept;
                        1 .. 0x7f: accept;
                    }
                }
            }
            control VC(inout headers hdr, inout metadata m) { apply { } }
            control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
                register<bit<8>>(4) last;
                action remember() { last.write(0, hdr.h.v); }
                action set_out(bit<9> port) { sm.egress_spec = port; }
                table route { key = { hdr.h.k : exact; } actions = { set_out; NoAction; } default_action = NoAction(); }
                apply {
                    sm.egress_spec = 1;
                    route.apply();
                    last.read(m.stored, 0);
                    if (m.stored == hdr.h.v) { hdr.h.v = 0xAA; }
                    if (hdr.h.k == 1) { remember(); }
                    if (hdr.h.k == 2) { hdr.h.v = 0xBB; }
                    switch (hdr.h.k) {
                        3: { hdr.h.v = 3; }
                        4: { hdr.h.v = 4; }
                    }
                }
            }
            control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
            control CC(inout headers hdr, inout metadata m) { apply { } }
            control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }
            V1Switch(P(), VC(), I(), E(), CC(), D()) main;
            """;
    /** Lines of PROGRAM (from 1) the assertions name. */
    private static final int SELECT_NO_CASE_LINE = 8;
    private static final int READ_GUARD_LINE = 24;
    private static final int WRITE_GUARD_LINE = 25;
    private static final int PLAIN_IF_LINE = 26;

    private static final P4Sim.Program COMPILED = P4Sim.compileText("cov.p4", PROGRAM);

    private static P4Switch withCoverage() {
        return COMPILED.instantiate(SwitchConfig.defaults().withCoverage(true));
    }

    private static void send(P4Switch sw, int k, int v) {
        sw.process(0, hex(String.format("%02x%02x", k, v)));
    }

    private static CoveragePoint point(Coverage c, int line, String outcome) {
        return c.points().stream().filter(p -> p.line() == line && p.outcome().equals(outcome)).findFirst()
                .orElseThrow(() -> new AssertionError("no point at line " + line + " " + outcome + " in " + c.points()));
    }

    private static long count(Coverage c, CoveragePoint p) {
        return c.count(p.key());
    }

    @Test
    void everyTableActionAndBranchOutcomeIsAPointLabelledWithItsSourceLine() {
        Coverage c = withCoverage().coverage();
        // route: hit and miss; actions remember and set_out (the prelude's NoAction is not the program's);
        // 3 ifs x 2 outcomes, 2 switch cases + "no case", 2 select cases + "no case matched"
        assertEquals(new Coverage.Summary(0, 2, 0, 2, 0, 12, 0, 4), c.summary());
        assertEquals(c.points().size(), c.unexercised().size());
        CoveragePoint readGuard = point(c, READ_GUARD_LINE, "true");
        assertEquals("cov.p4", readGuard.file());
        assertEquals("if (m.stored == hdr.h.v) { hdr.h.v = 0xAA; }", readGuard.text());
        assertEquals("I: if", readGuard.name());
        assertTrue(readGuard.registerGuard(), "the condition reads a value from register 'last'");
        assertTrue(point(c, WRITE_GUARD_LINE, "false").registerGuard(), "the true branch writes a register");
        assertFalse(point(c, PLAIN_IF_LINE, "true").registerGuard());
        assertEquals(CoveragePoint.Kind.BRANCH, point(c, SELECT_NO_CASE_LINE, "no case matched -> reject").kind());
    }

    @Test
    void exercisingAPointTakesItOffTheUnexercisedList() {
        P4Switch sw = withCoverage();
        // register holds 0: the read guard is false; k == 1 writes 5 (branches: select case 2, the three ifs, no switch case)
        send(sw, 1, 5);
        Coverage first = sw.coverage();
        CoveragePoint readTrue = point(first, READ_GUARD_LINE, "true");
        assertEquals(0, count(first, readTrue));
        assertTrue(first.unexercised().contains(readTrue));
        assertEquals(1, count(first, point(first, READ_GUARD_LINE, "false")));
        assertEquals(1, count(first, point(first, WRITE_GUARD_LINE, "true")));
        assertEquals(1, count(first, point(first, 19, "miss")));
        assertEquals(1, count(first, point(first, 17, "run")), "remember ran");
        assertEquals(1, count(first, point(first, 27, "no case")));
        assertEquals(new Coverage.Summary(1, 2, 1, 2, 5, 12, 2, 4), first.summary());

        send(sw, 1, 5); // the register now holds 5: the read guard is true
        Coverage second = sw.coverage();
        assertEquals(1, count(second, readTrue));
        assertFalse(second.unexercised().contains(readTrue));
        assertEquals(0, count(first, readTrue), "a snapshot does not change afterwards");
        assertEquals(new Coverage.Summary(1, 2, 1, 2, 6, 12, 3, 4), second.summary());

        send(sw, 0x80, 0); // no select case matches
        assertEquals(1, count(sw.coverage(), point(second, SELECT_NO_CASE_LINE, "no case matched -> reject")));
    }

    @Test
    void tableHitsAndSwitchCasesAreCountedPerOutcome() {
        P4Switch sw = withCoverage();
        sw.control().addEntry(new dev.innet.switchapi.EntrySpec("route",
                List.of(new dev.innet.switchapi.Match.Exact(java.math.BigInteger.valueOf(3))), 0, "set_out",
                List.of(java.math.BigInteger.TWO)));
        send(sw, 3, 0);
        send(sw, 4, 0);
        Coverage c = sw.coverage();
        assertEquals(1, count(c, point(c, 19, "hit")));
        assertEquals(1, count(c, point(c, 19, "miss")));
        assertEquals(1, count(c, point(c, 18, "run")), "set_out ran on the hit");
        assertEquals(1, count(c, point(c, 28, "case 3")));
        assertEquals(1, count(c, point(c, 29, "case 4")));
        assertEquals(0, count(c, point(c, 27, "no case")));
    }

    @Test
    void snapshotsOfSeveralSwitchesMergeByPoint() {
        P4Switch a = withCoverage();
        P4Switch b = withCoverage();
        send(a, 2, 0);
        send(b, 2, 0);
        send(b, 2, 0);
        Coverage merged = a.coverage().merge(b.coverageSource().get());
        assertEquals(a.coverage().points(), merged.points());
        assertEquals(3, count(merged, point(merged, PLAIN_IF_LINE, "true")));
        assertEquals(merged.summary(), Coverage.empty().merge(merged).summary());
        String json = merged.toJson();
        assertTrue(json.contains("\"registerGuards\": [2, 4]"), json);
        assertTrue(json.contains("\"line\": 26, \"col\": 9, \"name\": \"I: if\", \"outcome\": \"true\", \"count\": 3"), json);
        assertEquals(merged.points().size(), json.split("\"count\"").length - 1);
    }

    @Test
    void aParserSelectOnAFieldIngressFillsFromARegisterIsNoRegisterGuard() {
        // ingress writes hdr.h.k from a register, but the parser reads the next packet's own k
        String program = PROGRAM.replace("action remember() { last.write(0, hdr.h.v); }",
                "action remember() { last.write(0, hdr.h.v); last.read(hdr.h.k, 1); }");
        Coverage c = P4Sim.compileText("cov2.p4", program).instantiate(SwitchConfig.defaults().withCoverage(true)).coverage();
        assertFalse(point(c, 9, "case 1 -> accept").registerGuard());
        assertTrue(point(c, PLAIN_IF_LINE, "true").registerGuard(), "in ingress hdr.h.k may now come from 'last'");
    }

    @Test
    void aSwitchWithoutCoverageHasNoProbesAndSaysSo() {
        P4Switch off = COMPILED.instantiate();
        send(off, 1, 5);
        IllegalStateException e = assertThrows(IllegalStateException.class, off::coverage);
        assertTrue(e.getMessage().contains("withCoverage(true)"), e.getMessage());
        assertEquals(null, off.program().coverage());
    }
}
