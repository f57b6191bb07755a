package dev.innet.p4sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The p4sim command line: --check, compile errors, bad arguments, bad command files. */
class MainTest {
    @TempDir
    Path dir;

    /**
     * A program that does not compile: a bad-argument case given this program must report the
     * argument (exit 2), not the compile error (exit 1), which shows the compiler never ran.
     */
    private Path uncompilable;
    /** A commands file whose first line the switch rejects: if it ran, stderr would name line 1. */
    private Path rejectedCommands;

    private record Run(int exit, String out, String err) {}

    @BeforeEach
    void files() throws Exception {
        uncompilable = Files.writeString(dir.resolve("bad.p4"), "#include <v1model.p4>\nconst bit<8> X = 16w1;\n");
        rejectedCommands = Files.writeString(dir.resolve("s1-commands.txt"), "table_add nope a 1 => 2\n");
    }

    private static Run p4sim(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Exit 2, one stderr line naming {@code mustName}, and no sign that anything ran. */
    private static void assertArgumentError(Run r, String mustName) {
        assertEquals(Cli.EXIT_USAGE, r.exit(), r.err());
        assertEquals(1, r.err().lines().count(), "exactly one line on stderr: " + r.err());
        assertTrue(r.err().startsWith("p4sim: "), r.err());
        assertTrue(r.err().contains(mustName), "the error names '" + mustName + "': " + r.err());
        assertFalse(r.err().contains("error: type mismatch"), "the program was compiled: " + r.err());
        assertEquals("", r.out(), "nothing may run after a bad argument");
    }

    @Test
    void checkCompilesOrReportsThePosition() {
        Run ok = p4sim("--program", TestPrograms.stf("basic.p4").toString(), "--check");
        assertEquals(Main.EXIT_OK, ok.exit(), ok.err());
        assertTrue(ok.out().endsWith("basic.p4: ok\n"), ok.out());
        Run bad = p4sim("--program", uncompilable.toString(), "--check");
        assertEquals(Main.EXIT_FAILED, bad.exit());
        assertTrue(bad.err().contains("bad.p4:2:18: error: type mismatch: expected bit<8> but found bit<16>"), bad.err());
        // what p4c only warns about is printed and the program still compiles
        Run warned = p4sim("--program", TestPrograms.stf("corpusforms3.p4").toString(), "--check");
        assertEquals(Main.EXIT_OK, warned.exit(), warned.err());
        assertTrue(warned.err().contains("corpusforms3.p4:") && warned.err().contains(": warning: value 4 does not fit in bit<1>"),
                warned.err());
    }

    @Test
    void aRejectedCommandsLineNamesFileAndLine() throws Exception {
        Path commands = Files.writeString(dir.resolve("s2-commands.txt"),
                "table_set_default MyIngress.ipv4_lpm MyIngress.drop\ntable_add nope a 1 => 2\n");
        Run r = p4sim("--program", TestPrograms.stf("basic.p4").toString(), "--commands", commands.toString(),
                "--control-port", "0");
        assertEquals(Main.EXIT_FAILED, r.exit());
        assertTrue(r.err().contains("s2-commands.txt:2: unknown table 'nope'"), r.err());
    }

    @Test
    void helpPrintsEveryOptionAndExitsZero() {
        Run r = p4sim("--help");
        assertEquals(0, r.exit(), r.err());
        for (String option : new String[] {"--program", "-I", "--interface", "--control-port", "--thrift-port",
            "--cpu-port", "--commands", "--seed", "--io", "--trace-frames", "--trace-clients", "--trace-udp-frames", "--trace-switch", "--check"}) {
            assertTrue(r.out().contains(option), option + " missing from the usage: " + r.out());
        }
        assertEquals("", r.err());
    }

    @Test
    void unknownOption() {
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--frobnicate"), "--frobnicate");
        // named even when --program is missing too (it is likely --program misspelt)
        assertArgumentError(p4sim("--frobnicate"), "--frobnicate");
        assertArgumentError(p4sim("--programm", uncompilable.toString()), "--programm");
    }

    @Test
    void traceFramesNeedsItsClientsAndTheClientsAreHosts() {
        Path trace = dir.resolve("h0.ndjson");
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--trace-frames", trace.toString()), "--trace-clients");
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--trace-clients", "3,4"), "--trace-frames");
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--trace-frames", trace.toString(),
                "--trace-clients", "3,0"), "host 0");
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--trace-frames", trace.toString(),
                "--trace-clients", "3,x"), "x");
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--trace-udp-frames"), "--trace-frames");
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--trace-switch", "leaf1"), "--trace-frames");
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--trace-frames", trace.toString(),
                "--trace-clients", "3", "--trace-switch", "a b"), "--trace-switch");
        assertFalse(Files.exists(trace), "nothing may be opened after a bad argument");
    }

    @Test
    void unknownIoMode() {
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--io", "mmap"), "mmap");
    }

    @Test
    void nonNumberControlPort() {
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--control-port", "abc"), "abc");
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--thrift-port", "9o90"), "9o90");
    }

    @Test
    void nonNumberSeedAndCpuPort() {
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--seed", "0x1g"), "0x1g");
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--cpu-port", "cpu"), "cpu");
    }

    @Test
    void controlPortOutOfRange() {
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--control-port", "70000"), "70000");
        // --thrift-port is simple_switch's name for the same setting: its value lands in the same check
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--thrift-port", "70000"), "--control-port");
    }

    @Test
    void missingValue() {
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--control-port"), "--control-port");
    }

    @Test
    void missingProgramOption() {
        assertArgumentError(p4sim("--check"), "--program");
    }

    @Test
    void missingProgramFile() {
        assertArgumentError(p4sim("--program", dir.resolve("absent.p4").toString(), "--check"), "absent.p4");
    }

    @Test
    void missingIncludeDirectory() {
        assertArgumentError(p4sim("--program", uncompilable.toString(), "-I", dir.resolve("no-such-dir").toString()),
                "no-such-dir");
    }

    @Test
    void missingCommandsFile() {
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--commands",
                dir.resolve("absent-commands.txt").toString()), "absent-commands.txt");
    }

    @Test
    void unknownInterface() {
        // the commands file would be rejected on line 1 if it ran: it must not
        assertArgumentError(p4sim("--program", TestPrograms.stf("basic.p4").toString(), "--commands",
                rejectedCommands.toString(), "-i", "1@nosuchif0"), "nosuchif0");
        assertArgumentError(p4sim("--program", uncompilable.toString(), "--interface", "1@nosuchif0"), "nosuchif0");
    }

    @Test
    void malformedInterfaceSpec() {
        assertArgumentError(p4sim("--program", uncompilable.toString(), "-i", "veth0"), "veth0");
        assertArgumentError(p4sim("--program", uncompilable.toString(), "-i", "x@lo"), "x@lo");
        assertArgumentError(p4sim("--program", uncompilable.toString(), "-i", "-3@lo"), "-3@lo");
        assertArgumentError(p4sim("--program", uncompilable.toString(), "-i", "511@lo"), "511@lo");
    }

    @Test
    void portAttachedTwice() {
        // lo exists in every network namespace; the duplicate is found before any socket is opened
        assertArgumentError(p4sim("--program", uncompilable.toString(), "-i", "1@lo", "-i", "1@lo"), "port 1");
    }

    @Test
    void strayPositionalArgument() {
        assertArgumentError(p4sim("--program", uncompilable.toString(), "extra"), "extra");
    }
}
