package dev.innet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

class CliTest {
    @Command(name = "probe", mixinStandardHelpOptions = true, description = "a command for the tests")
    static final class Probe implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--count", description = "a number")
        int count = 1;

        @Option(names = "--file", converter = ExistingFile.class)
        Path file;

        @Option(names = "--mode")
        String mode = "a";

        @Option(names = "--iface", converter = NetworkInterfaceName.class)
        String iface;

        boolean ran;

        @Override
        public Integer call() {
            if (!mode.equals("a") && !mode.equals("b")) {
                throw Cli.usageError(spec, "unknown mode '" + mode + "' (a or b)");
            }
            ran = true;
            return count == 7 ? 5 : 0;
        }
    }

    @Command(name = "needs", mixinStandardHelpOptions = true)
    static final class NeedsAnOption implements Callable<Integer> {
        @Option(names = "--program", required = true)
        String program;

        @Override
        public Integer call() {
            throw new AssertionError("must not run");
        }
    }

    private record Run(int code, String out, String err, boolean ran) {}

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Probe probe = new Probe();
        int code = Cli.run("innet probe", probe, args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), probe.ran);
    }

    private static void assertOneLineUsageError(Run r, String mustName) {
        assertEquals(Cli.EXIT_USAGE, r.code(), r.err());
        assertFalse(r.ran(), "a bad argument must run nothing");
        assertEquals(1, r.err().strip().lines().count(), "one line on stderr: " + r.err());
        assertTrue(r.err().startsWith("innet probe: "), r.err());
        assertTrue(r.err().contains(mustName), "the error names '" + mustName + "': " + r.err());
        assertEquals("", r.out());
    }

    @Test
    void helpPrintsUsageAndExitsZero() {
        Run r = run("--help");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("--count"), r.out());
        assertFalse(r.ran());
    }

    @Test
    void goodArgumentsRunTheCommandAndKeepItsExitCode() {
        Run r = run("--count", "7");
        assertTrue(r.ran());
        assertEquals(5, r.code());
    }

    @Test
    void unknownOptionIsOneLineExitTwo() {
        assertOneLineUsageError(run("--bogus"), "--bogus");
    }

    @Test
    void unknownOptionIsNamedEvenWhenARequiredOptionIsMissing() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run("innet probe", new NeedsAnOption(), new String[] {"--programm", "x"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertOneLineUsageError(new Run(code, out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8), false), "--programm");
    }

    @Test
    void nonNumberIsOneLineExitTwo() {
        assertOneLineUsageError(run("--count", "abc"), "abc");
    }

    @Test
    void missingValueIsOneLineExitTwo() {
        assertOneLineUsageError(run("--count"), "--count");
    }

    @Test
    void missingFileIsOneLineExitTwo() {
        assertOneLineUsageError(run("--file", "/no/such/file"), "/no/such/file");
    }

    @Test
    void validationInsideTheCommandIsOneLineExitTwo() {
        assertOneLineUsageError(run("--mode", "zzz"), "zzz");
    }

    @Test
    void unknownInterfaceIsOneLineExitTwo() {
        assertOneLineUsageError(run("--iface", "nosuchif0"), "nosuchif0");
    }

    @Test
    void interfaceNamesThatWouldEscapeSysfsAreRejected() {
        // "../net" and "." resolve to existing sysfs directories: they must fail on the name itself
        assertOneLineUsageError(run("--iface", "../net"), "../net");
        assertOneLineUsageError(run("--iface", "."), "'.'");
        assertOneLineUsageError(run("--iface", "a-name-longer-than-15"), "a-name-longer-than-15");
    }

    @Test
    void existingInterfaceIsAccepted() {
        // every Linux network namespace has a loopback interface
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/sys/class/net/lo")), "needs Linux sysfs");
        Run r = run("--iface", "lo");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.ran());
    }
}
