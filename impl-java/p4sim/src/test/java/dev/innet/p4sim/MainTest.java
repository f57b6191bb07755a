package dev.innet.p4sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The p4sim command line: --check, compile errors, bad arguments, bad command files. */
class MainTest {
    private static int run(ByteArrayOutputStream err, String... args) throws Exception {
        PrintStream old = System.err;
        System.setErr(new PrintStream(err, true));
        try {
            return Main.run(args);
        } finally {
            System.setErr(old);
        }
    }

    @Test
    void checkCompilesOrReportsThePosition(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, run(err, "--program", TestPrograms.stf("basic.p4").toString(), "--check"));
        Path bad = dir.resolve("bad.p4");
        Files.writeString(bad, "#include <v1model.p4>\nconst bit<8> X = 300;\n");
        assertEquals(1, run(err, "--program", bad.toString(), "--check"));
        assertTrue(err.toString().contains("bad.p4:2:18: error: value 300 does not fit in bit<8>"), err.toString());
    }

    @Test
    void badArgumentsAndCommandFiles(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, run(err, "--frobnicate"));
        assertEquals(2, run(err, "-i", "0@veth0"));
        Path commands = dir.resolve("s1-commands.txt");
        Files.writeString(commands, "table_set_default MyIngress.ipv4_lpm MyIngress.drop\ntable_add nope a 1 => 2\n");
        assertEquals(1, run(err, "--program", TestPrograms.stf("basic.p4").toString(), "--commands", commands.toString(),
                "--control-port", "0"));
        assertTrue(err.toString().contains("s1-commands.txt:2: unknown table 'nope'"), err.toString());
    }
}
