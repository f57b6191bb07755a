package dev.innet.tracegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceCaseTest {
    private static TraceCase.TraceState state(String act, long x) {
        TlaValue action = TlaValue.parse(act);
        return new TraceCase.TraceState(action, List.of(new TlaValue.Field("x", new TlaValue.Int(x)),
                new TlaValue.Field("act", action)));
    }

    private static TraceCase sample() {
        return new TraceCase("specs/fixture/Counter.tla", "MCCounter", new TraceCase.Source.Simulate(7, 2),
                List.of(state("[a |-> \"Init\"]", 0), state("[a |-> \"Inc\", by |-> 1]", 1)), List.of());
    }

    @Test
    void jsonHasTheDocumentedShape() {
        String json = sample().toJson().write();
        assertEquals("{\"spec\":\"specs/fixture/Counter.tla\",\"model\":\"MCCounter\","
                + "\"source\":{\"kind\":\"simulate\",\"seed\":7,\"index\":2},\"states\":["
                + "{\"action\":{\"rec\":{\"a\":{\"str\":\"Init\"}}},\"vars\":{\"x\":0,\"act\":{\"rec\":{\"a\":{\"str\":\"Init\"}}}}},"
                + "{\"action\":{\"rec\":{\"a\":{\"str\":\"Inc\"},\"by\":1}},\"vars\":{\"x\":1,\"act\":{\"rec\":{\"a\":{\"str\":\"Inc\"},\"by\":1}}}}]}",
                json);
    }

    @Test
    void writeThenReadGivesTheSameCaseForJsonAndTrace(@TempDir Path dir) throws IOException {
        TraceCase generated = sample();
        generated.write(dir.resolve("a.json"));
        assertEquals(generated, TraceCase.read(dir.resolve("a.json")));

        TraceCase curated = new TraceCase("s.tla", "M", new TraceCase.Source.PathCover(3, 1),
                sample().states(), List.of("why: the counter steps once", "", "second line"));
        curated.write(dir.resolve("b.trace"));
        String text = Files.readString(dir.resolve("b.trace"));
        assertTrue(text.startsWith("# why: the counter steps once\n#\n# second line\n{"), text);
        assertEquals(curated, TraceCase.read(dir.resolve("b.trace")));
        assertEquals("Inc", TraceCase.read(dir.resolve("b.trace")).states().get(1).actionName());
    }

    @Test
    void aCuratedTraceWithoutWhyIsRejected(@TempDir Path dir) throws IOException {
        sample().write(dir.resolve("c.trace"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TraceCase.read(dir.resolve("c.trace")));
        assertTrue(e.getMessage().contains("# why:"), e.getMessage());
    }

    @Test
    void wrongShapesNameTheirPlace() {
        assertBad("{\"spec\":\"s\",\"model\":\"m\",\"source\":{\"kind\":\"other\"},\"states\":[]}", "source.kind");
        assertBad("{\"spec\":\"s\",\"model\":\"m\",\"source\":{\"kind\":\"simulate\",\"seed\":1,\"index\":0},\"states\":[]}",
                "at least its initial state");
        assertBad("{\"spec\":\"s\",\"source\":{}}", "missing \"model\"");
        assertBad("{\"spec\":\"s\",\"model\":\"m\",\"source\":{\"kind\":\"pathcover\",\"index\":0,\"edges\":0},"
                + "\"states\":[{\"action\":1,\"vars\":{\"x\":{\"str\":1}}}]}", "states[0].vars.x.str: expected a string");
        assertBad("{\"spec\":\"s\",\"model\":\"m\",\"source\":{\"kind\":\"pathcover\",\"index\":0,\"edges\":0},"
                + "\"states\":[{\"action\":1,\"vars\":{\"x\":1}},{\"action\":1,\"vars\":{\"y\":1}}]}", "state 1 has variables [y]");
    }

    private static void assertBad(String text, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TraceCase.parse(text));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
