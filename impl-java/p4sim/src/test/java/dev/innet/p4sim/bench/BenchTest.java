package dev.innet.p4sim.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The arguments of {@code innet bench p4sim} and of its single-workload benchmarks; no benchmark is
 * run here (each takes seconds).
 */
class BenchTest {
    private static final String ROOT = System.getProperty("innet.root", "../..");

    private record Run(int exit, String out, String err) {}

    private static Run bench(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Bench.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Exit 2, one stderr line naming {@code mustName}, and no benchmark output. */
    private static void assertArgumentError(Run r, String mustName) {
        assertEquals(Cli.EXIT_USAGE, r.exit(), r.err());
        assertEquals(1, r.err().lines().count(), "exactly one line on stderr: " + r.err());
        assertTrue(r.err().contains(mustName), "the error names '" + mustName + "': " + r.err());
        assertEquals("", r.out(), "the benchmark must not start");
    }

    @Test
    void helpExitsZero() {
        Run r = bench("--help");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("SECONDS") && r.out().contains("--root"), r.out());
    }

    @Test
    void secondsMustBeAPositiveNumber() {
        assertArgumentError(bench("--root", ROOT, "five"), "five");
        assertArgumentError(bench("--root", ROOT, "0"), "SECONDS");
        assertArgumentError(bench("--root", ROOT, "NaN"), "SECONDS");
        assertArgumentError(bench("--root", ROOT, "--", "-3"), "-3");
    }

    @Test
    void unknownOptionAndExtraArgument() {
        assertArgumentError(bench("--root", ROOT, "--bogus"), "--bogus");
        assertArgumentError(bench("--root", ROOT, "5", "6"), "6");
    }

    @Test
    void rootMustExistAndHoldThePrograms(@TempDir Path empty) {
        assertArgumentError(bench("--root", empty.resolve("absent").toString(), "1"), "absent");
        assertArgumentError(bench("--root", empty.toString(), "1"), "farreach.p4");
        assertArgumentError(bench("--root"), "--root");
    }

    private static Run oneWorkload(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Cli.run("InProcessBench", new InProcessBench.FromCommandLine(), args,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void singleWorkloadArguments() {
        String program = Path.of(ROOT, "p4/farreach.p4").toString();
        String stf = Path.of(ROOT, "p4/tests/farreach.stf").toString();
        assertEquals(0, oneWorkload("--help").exit());
        assertArgumentError(oneWorkload(program, stf), "PACKET_INDEX");
        assertArgumentError(oneWorkload(program, stf, "k"), "'k'");
        assertArgumentError(oneWorkload(program, stf, "0"), "PACKET_INDEX 0");
        assertArgumentError(oneWorkload(program, stf, "100000"), "PACKET_INDEX 100000");
        assertArgumentError(oneWorkload(program, stf, "25", "-1"), "SECONDS");
        assertArgumentError(oneWorkload(program, "absent.stf", "25"), "absent.stf");
    }
}
