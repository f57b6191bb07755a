package dev.innet.tracegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TlaJsonTest {
    private static String json(String tla) {
        return TlaJson.encode(TlaValue.parse(tla)).write();
    }

    /** The exact format the replayer reads (docs/conformance.md). */
    @Test
    void encodingIsTheDocumentedTaggedFormat() {
        assertEquals("-3", json("-3"));
        assertEquals("true", json("TRUE"));
        assertEquals("{\"str\":\"x\"}", json("\"x\""));
        assertEquals("{\"mv\":\"c1\"}", json("c1"));
        assertEquals("{\"rec\":{\"b\":1,\"a\":{\"str\":\"y\"}}}", json("[b |-> 1, a |-> \"y\"]"));
        assertEquals("{\"fn\":[[{\"mv\":\"k1\"},0],[{\"mv\":\"k2\"},1]]}", json("(k1 :> 0 @@ k2 :> 1)"));
        assertEquals("{\"seq\":[1,2]}", json("<<1, 2>>"));
        assertEquals("{\"set\":[]}", json("{}"));
    }

    @Test
    void encodeWriteParseDecodeIsTheIdentityOnRandomValues() {
        RandomValues random = new RandomValues(5);
        for (int n = 0; n < 2000; n++) {
            TlaValue v = random.value(4);
            String compact = TlaJson.encode(v).write();
            assertEquals(v, TlaJson.decode(Json.parse(compact), "$"), compact);
            String pretty = TlaJson.encode(v).writePretty(40);
            assertEquals(v, TlaJson.decode(Json.parse(pretty), "$"), pretty);
        }
    }

    /** Every variable of a behaviour TLC wrote for MCFarReachCache survives JSON and back. */
    @Test
    void realTlcStatesRoundTripThroughJson() throws java.io.IOException {
        String text = java.nio.file.Files.readString(
                java.nio.file.Path.of("src/test/resources/tlc-output/farreach-cache-simulate.txt"));
        int values = 0;
        for (TlcStateText.State state : TlcStateText.parseBehaviour(text)) {
            for (TlaValue.Field f : state.vars()) {
                assertEquals(f.value(), TlaJson.decode(Json.parse(TlaJson.encode(f.value()).write()), f.name()));
                values++;
            }
        }
        assertTrue(values > 300, "values checked: " + values);
        assertEquals("{\"fn\":[[{\"mv\":\"k1\"},{\"rec\":{\"v\":-1,\"s\":-1}}]]}",
                TlaJson.encode(TlcStateText.parseBehaviour(text).getFirst().get("crec")).write());
    }

    @Test
    void jsonThatIsNoTlaValueIsRejectedWithItsPath() {
        assertRejected("{\"rec\":{\"a\":{\"x\":1}}}", "$.rec.a: unknown TLA+ value tag \"x\"");
        assertRejected("{\"str\":\"a\",\"mv\":\"b\"}", "exactly one tag");
        assertRejected("{\"fn\":[[1]]}", "$.fn[0]: a function pair is [key, value]");
        assertRejected("{\"rec\":{}}", "at least one field");
        assertRejected("{\"set\":[1,1]}", "duplicate element");
        assertRejected("null", "not a TLA+ value");
        assertRejected("{\"mv\":\"not a name\"}", "not a model value name");
    }

    private static void assertRejected(String text, String message) {
        Json.JsonException e = assertThrows(Json.JsonException.class, () -> TlaJson.decode(Json.parse(text), "$"));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void badJsonTextNamesTheOffset() {
        for (String[] bad : new String[][] {
                {"{\"a\":1,}", "expected a member name in quotes at offset 7"},
                {"[1 2]", "expected ',' or ']' in an array at offset 3"},
                {"1.5", "only integers"},
                {"{\"a\":1,\"a\":2}", "duplicate member \"a\" at offset 7"},
                {"\"abc", "string not closed"},
                {"[1] x", "unexpected text after the JSON value at offset 4"}}) {
            Json.JsonException e = assertThrows(Json.JsonException.class, () -> Json.parse(bad[0]));
            assertTrue(e.getMessage().contains(bad[1]), bad[0] + " -> " + e.getMessage());
        }
    }
}
