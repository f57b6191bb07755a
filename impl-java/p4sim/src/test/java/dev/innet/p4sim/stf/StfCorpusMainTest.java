package dev.innet.p4sim.stf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./innet stf-corpus DIR}: one line per *-bmv2.p4 with a .stf, then the totals and the reasons. */
class StfCorpusMainTest {
    @TempDir
    Path dir;

    @Test
    void reportsEveryProgramAndTheTotals() throws Exception {
        Path stfDir = Path.of(StfCorpusMainTest.class.getResource("/stf").toURI());
        Files.copy(stfDir.resolve("enumkeys.p4"), dir.resolve("good-bmv2.p4"));
        Files.copy(stfDir.resolve("enumkeys.stf"), dir.resolve("good-bmv2.stf"));
        Files.copy(stfDir.resolve("enumkeys.p4"), dir.resolve("wrong-bmv2.p4"));
        Files.writeString(dir.resolve("wrong-bmv2.stf"), "packet 0 01 05 00 00 00\nexpect 1 ff\n");
        Files.writeString(dir.resolve("broken-bmv2.p4"), "#include <core.p4>\n#include <v1model.p4>\nconst bit<8> X = nope;\n");
        Files.writeString(dir.resolve("broken-bmv2.stf"), "");
        Files.copy(stfDir.resolve("enumkeys.p4"), dir.resolve("untested-bmv2.p4")); // no .stf: not run
        Files.copy(stfDir.resolve("enumkeys.p4"), dir.resolve("other.p4"));          // not *-bmv2.p4
        Files.copy(stfDir.resolve("enumkeys.stf"), dir.resolve("other.stf"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        int code = Cli.run("stf-corpus", new StfCorpusMain(ps), new String[] {dir.toString()}, ps, ps);
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, code, text);
        assertTrue(text.contains("good-bmv2.p4: pass"), text);
        assertTrue(text.contains("wrong-bmv2.p4: fail: " + dir.resolve("wrong-bmv2.stf") + ":2: packet on port 1 differs"), text);
        assertTrue(text.contains("broken-bmv2.p4: rejected: " + dir.resolve("broken-bmv2.p4") + ":3:18: error: undeclared identifier 'nope'"), text);
        assertTrue(text.contains("total 3: pass 1 (33.3%), fail 1, rejected 1, bad STF 0, crash 0"), text);
        assertTrue(text.contains("  rejected 1x: undeclared identifier 'nope'"), text);
        assertTrue(!text.contains("untested") && !text.contains("other.p4"), text);
    }
}
