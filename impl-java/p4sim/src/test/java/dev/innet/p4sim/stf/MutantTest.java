package dev.innet.p4sim.stf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MutantTest {
    private static final String PROGRAM = """
            control C() {
                apply {
                    if (a == 1
                        && b >= c) {
                        x = 1;
                    }
                    y = 2;
                    y = 2;
                }
            }
            """;

    private static Mutant only(String text) {
        List<Mutant> ms = Mutant.parse("m.txt", text);
        assertEquals(1, ms.size(), ms.toString());
        return ms.get(0);
    }

    @Test
    void parsesHeaderAndLines() {
        List<Mutant> ms = Mutant.parse("m.txt", """
                # comment

                mutant demo first: drops the bound
                - if (a == 1
                - && b >= c) {
                + if (a == 1) {
                mutant other second: deletes a line
                - x = 1;
                """);
        assertEquals(2, ms.size());
        assertEquals(new Mutant("demo", "first", "drops the bound", List.of("if (a == 1", "&& b >= c) {"),
                List.of("if (a == 1) {"), "m.txt:3"), ms.get(0));
        assertEquals(List.of(), ms.get(1).added());
        assertEquals("other second", ms.get(1).label());
    }

    @Test
    void replacesOneRunOfLinesKeepingIndentation() {
        Mutant m = only("""
                mutant demo bound: no bound
                - if (a == 1
                -    && b >= c) {
                + if (a == 1) {
                """);
        String out = m.applyTo(PROGRAM, "demo.p4");
        assertEquals(PROGRAM.replace("        if (a == 1\n            && b >= c) {\n", "        if (a == 1) {\n"), out);
    }

    @Test
    void deletionRemovesTheLines() {
        String out = only("mutant demo d: deletes\n- x = 1;\n").applyTo(PROGRAM, "demo.p4");
        assertEquals(PROGRAM.replace("            x = 1;\n", ""), out);
    }

    @Test
    void linesThatNoLongerOccurAreAnErrorNamingTheMutant() {
        Mutant m = only("mutant demo gone: edited away\n- z = 3;\n+ z = 4;\n");
        Mutant.MutantException e = assertThrows(Mutant.MutantException.class, () -> m.applyTo(PROGRAM, "p4/demo.p4"));
        assertTrue(e.getMessage().startsWith("m.txt:1: "), e.getMessage());
        assertTrue(e.getMessage().contains("demo gone") && e.getMessage().contains("do not occur in p4/demo.p4"), e.getMessage());
    }

    @Test
    void ambiguousLinesAreAnErrorListingWhereTheyOccur() {
        Mutant m = only("mutant demo twice: ambiguous\n- y = 2;\n+ y = 3;\n");
        Mutant.MutantException e = assertThrows(Mutant.MutantException.class, () -> m.applyTo(PROGRAM, "demo.p4"));
        assertTrue(e.getMessage().contains("occur 2 times") && e.getMessage().contains("[7, 8]"), e.getMessage());
    }

    @Test
    void malformedFilesAreRejectedWithTheirLine() {
        assertBad("- x = 1;\n", "m.txt:1: '-' line before the first 'mutant' line");
        assertBad("mutant demo: no name\n- x = 1;\n", "m.txt:1: expected 'mutant PROGRAM NAME: what it breaks'");
        assertBad("mutant demo a\n- x = 1;\n", "m.txt:1: expected 'mutant PROGRAM NAME: what it breaks'");
        assertBad("mutant demo a: n\n+ x = 2;\n", "m.txt:1: mutant demo a has no '-' lines");
        assertBad("mutant demo a: n\n- x = 1;\n+ x = 2;\n- y = 2;\n", "m.txt:4: '-' line after '+' lines");
        assertBad("mutant demo a: n\n- x = 1;\n+ x = 1;\n", "m.txt:1: mutant demo a changes nothing");
        assertBad("mutant demo a: n\n- x = 1;\nmutant demo a: n\n- y = 2;\n", "m.txt:3: mutant demo a is defined twice (also at m.txt:1)");
        assertBad("mutant demo a: n\n- x = 1;\nx = 2;\n", "m.txt:3: expected 'mutant PROGRAM NAME: note'");
    }

    private static void assertBad(String text, String messageStart) {
        Mutant.MutantException e = assertThrows(Mutant.MutantException.class, () -> Mutant.parse("m.txt", text));
        assertTrue(e.getMessage().startsWith(messageStart), e.getMessage());
    }
}
