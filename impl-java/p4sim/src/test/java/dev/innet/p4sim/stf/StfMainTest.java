package dev.innet.p4sim.stf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./innet stf}: exit 0 pass, 1 fail, 2 bad input (bad STF line, rejected program, missing file, no bmv2). */
class StfMainTest {
    @TempDir
    Path dir;

    private record Result(int code, String out, String err) { }

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = StfMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A copy of a test program in the temp dir, so its STF can be replaced. */
    private Path program(String name) throws IOException, URISyntaxException {
        Path src = Path.of(StfMainTest.class.getResource("/stf/" + name).toURI());
        Path p = dir.resolve(name);
        Files.copy(src, p);
        return p;
    }

    @Test
    void aPassingTestExitsZero() throws Exception {
        Path p = program("enumkeys.p4");
        Files.writeString(dir.resolve("enumkeys.stf"), Files.readString(Path.of(StfMainTest.class.getResource("/stf/enumkeys.stf").toURI())));
        Result r = run(p.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("enumkeys.p4: pass"), r.out());
    }

    @Test
    void aFailingTestExitsOneAndSaysWhy() throws Exception {
        Path p = program("enumkeys.p4");
        Path stf = dir.resolve("wrong.stf");
        Files.writeString(stf, "packet 0 01 05 00 00 00\nexpect 1 01 05 a1 00 99 $\n");
        Result r = run(p.toString(), stf.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("wrong.stf:2: packet on port 1 differs"), r.err());
        assertTrue(r.out().contains("FAIL (1 failure(s))"), r.out());
    }

    @Test
    void aMalformedLineExitsTwoNamingTheLine() throws Exception {
        Path p = program("enumkeys.p4");
        Path stf = dir.resolve("bad.stf");
        Files.writeString(stf, "# fine\nadd ternary_enum 1 hdr.h.nokey:0x10 s2(v:1)\npacket 0 01 05 00 00 00\nfrobnicate 3\n");
        Result r = run(p.toString(), stf.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("bad.stf:2: table I.ternary_enum has no key field 'hdr.h.nokey'"), r.err());
        assertTrue(r.err().contains("bad.stf:4: unknown STF command 'frobnicate' (in 'frobnicate 3')"), r.err());
        // an odd number of hex digits is read as p4c's runner reads it (StfRunnerTest); other digits are bad input
        Files.writeString(stf, "packet 0 01 0g\n");
        r = run(p.toString(), stf.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("bad.stf:1: packet data is not hex digits"), r.err());
    }

    @Test
    void aProgramP4simRejectsExitsTwoWithTheConstruct() throws Exception {
        Path p = dir.resolve("broken.p4");
        Files.writeString(p, "#include <core.p4>\n#include <v1model.p4>\nconst bit<8> X = nope;\n");
        Files.writeString(dir.resolve("broken.stf"), "packet 0 00\n");
        Result r = run(p.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("broken.p4:3:18: error: undeclared identifier 'nope'"), r.err());
    }

    @Test
    void missingFilesAndBmv2AreBadInput() throws Exception {
        Path p = program("enumkeys.p4");
        Result r = run(p.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("no STF test " + dir.resolve("enumkeys.stf") + " (give TEST.stf)"), r.err());
        r = run(dir.resolve("nothere.p4").toString());
        assertEquals(2, r.code());
        Files.writeString(dir.resolve("enumkeys.stf"), "");
        r = run("--target", "bmv2", p.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("simple_switch (install bmv2"), r.err()); // PATH here has no bmv2 (TOOLCHAIN.md)
        r = run("--target", "tofino", p.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--target must be p4sim or bmv2"), r.err());
    }

    /** Without bmv2's tools on the search path, --target bmv2 names each missing one and runs nothing. */
    @Test
    void missingBmv2ToolsAreNamed() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path program = dir.resolve("x.p4");
        Path script = dir.resolve("x.stf");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(err, true, StandardCharsets.UTF_8);
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(2, Bmv2Target.run(program, script, out, ps, bin.toString()));
        String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("simple_switch (install bmv2") && text.contains("p4c (") && text.contains("simple_switch_CLI"), text);
        Path sw = Files.writeString(bin.resolve("simple_switch"), "#!/bin/sh\n");
        sw.toFile().setExecutable(true);
        err.reset();
        assertEquals(2, Bmv2Target.run(program, script, out, ps, bin.toString()));
        text = err.toString(StandardCharsets.UTF_8);
        assertTrue(!text.contains("simple_switch (install bmv2") && text.contains("p4c ("), text);
    }
}
