package dev.innet.tracegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class TlaValueParserTest {
    private static TlaValue mv(String name) {
        return new TlaValue.ModelValue(name);
    }

    private static TlaValue i(long n) {
        return new TlaValue.Int(n);
    }

    @Test
    void readsEveryShapeNested() {
        TlaValue v = TlaValue.parse("[a |-> 1, b |-> \"x\", c |-> (k1 :> <<1, -2>> @@ k2 :> {TRUE, FALSE}), d |-> c1]");
        TlaValue expected = new TlaValue.Rec(List.of(
                new TlaValue.Field("a", i(1)),
                new TlaValue.Field("b", new TlaValue.Str("x")),
                new TlaValue.Field("c", new TlaValue.Fn(List.of(
                        new TlaValue.Pair(mv("k1"), new TlaValue.Seq(List.of(i(1), i(-2)))),
                        new TlaValue.Pair(mv("k2"), new TlaValue.TlaSet(List.of(
                                new TlaValue.Bool(true), new TlaValue.Bool(false))))))),
                new TlaValue.Field("d", mv("c1"))));
        assertEquals(expected, v);
    }

    @Test
    void recordFieldOrderIsKeptAndMatters() {
        TlaValue ab = TlaValue.parse("[a |-> 1, b |-> 2]");
        TlaValue ba = TlaValue.parse("[b |-> 2, a |-> 1]");
        assertEquals("[b |-> 2, a |-> 1]", ba.toTla());
        assertEquals(List.of("a", "b"), ((TlaValue.Rec) ab).fields().stream().map(TlaValue.Field::name).toList());
        assertEquals(i(2), ((TlaValue.Rec) ba).get("b").orElseThrow());
        assertTrue(!ab.equals(ba));
    }

    @Test
    void emptyCollectionsAndStringEscapes() {
        assertEquals(new TlaValue.Seq(List.of()), TlaValue.parse("<< >>"));
        assertEquals(new TlaValue.TlaSet(List.of()), TlaValue.parse("{}"));
        assertEquals(new TlaValue.Str("a\"b\\c\nd"), TlaValue.parse("\"a\\\"b\\\\c\\nd\""));
    }

    @Test
    void whitespaceAndNewlinesAnywhereBetweenTokens() {
        TlaValue v = TlaValue.parse("( c1 :> [k |-> \"none\", t |-> \"none\"] @@\n  c2 :> [k |-> k1,\n t |-> \"w\"] )");
        assertEquals("(c1 :> [k |-> \"none\", t |-> \"none\"] @@ c2 :> [k |-> k1, t |-> \"w\"])", v.toTla());
    }

    @Test
    void printThenParseIsTheIdentityOnRandomValues() {
        RandomValues random = new RandomValues(11);
        for (int n = 0; n < 2000; n++) {
            TlaValue v = random.value(4);
            String printed = v.toTla();
            assertEquals(v, TlaValue.parse(printed), printed);
            String spaced = random.withRandomWhitespace(printed);
            assertEquals(v, TlaValue.parse(spaced), spaced);
        }
    }

    @Test
    void malformedTextNamesWhatAndWhere() {
        assertError("[a |-> 1, b 2]", "expected '|->'", 12);
        assertError("[a |-> 1", "expected ',' or ']'", 8);
        assertError("(k1 :> 1 k2 :> 2)", "expected '@@' or ')'", 9);
        assertError("<<1, 2", "expected ',' or '>>'", 6);
        assertError("{1, 1}", "duplicate element", 1);
        assertError("\"abc", "string not closed", 0);
        assertError("1..3", "unexpected text after the value", 1);
        assertError("-x", "expected digits", 0);
        assertError("12ab", "not a number", 0);
        assertError("[a |-> 1, a |-> 2]", "duplicate record field 'a'", 10);
        assertError("", "found the end of the text", 0);
        assertError("[x \\in S |-> 1]", "expected '|->'", 3);
        assertError("99999999999999999999", "integer out of range", 0);
    }

    private static void assertError(String text, String message, int offset) {
        TlaValueParser.ParseException e = assertThrows(TlaValueParser.ParseException.class, () -> TlaValue.parse(text));
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertEquals(offset, e.offset(), e.getMessage());
        assertTrue(e.getMessage().contains("at offset " + offset), e.getMessage());
    }

    /** Every variable of every state in a behaviour file TLC 2.18 wrote for MCFarReachCache parses and re-prints. */
    @Test
    void readsRealTlcSimulationOutput() throws IOException {
        String text = Files.readString(Path.of("src/test/resources/tlc-output/farreach-cache-simulate.txt"));
        List<TlcStateText.State> states = TlcStateText.parseBehaviour(text);
        assertTrue(states.size() > 5, "states: " + states.size());
        TlaValue initAct = states.getFirst().get("act");
        assertEquals(TlaValue.parse("[a |-> \"Init\"]"), initAct);
        TlaValue pend = states.get(1).get("pend");
        TlaValue.Fn pendFn = (TlaValue.Fn) pend;
        assertEquals(TlaValue.parse("[k |-> k1, t |-> \"w\", id |-> 1, floor |-> 0]"), pendFn.apply(mv("c1")).orElseThrow());
        for (TlcStateText.State s : states) {
            assertEquals(34, s.vars().size(), "FarReach has 34 variables");
            for (TlaValue.Field f : s.vars()) {
                assertEquals(f.value(), TlaValue.parse(f.value().toTla()));
            }
        }
    }
}
