package dev.innet.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every bad argument of ./innet sim, bench farreach and demo is one line on stderr naming it, exit 2,
 * and nothing runs: none of these cases gets as far as building a rack (which would print a banner on
 * stdout and take seconds).
 */
class ArgumentErrorsTest {
    private static Callable<Integer> command(String which) {
        return switch (which) {
            case "sim" -> new SimMain();
            case "bench" -> new BenchMain();
            case "demo" -> new DemoMain();
            case "conform" -> new ConformMain();
            default -> throw new IllegalArgumentException(which);
        };
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
        "sim   | --seeds abc              | abc",
        "sim   | --program foo            | foo",
        "sim   | --bogus                  | --bogus",
        "sim   | --seeds                  | --seeds",
        "sim   | --seeds 0                | --seeds",
        "sim   | --chaos-ms 1.5           | 1.5",
        "sim   | --deletes 0.9            | --deletes",
        "sim   | --validate x             | x",
        "sim   | --keys 0                 | --keys",
        "sim   | --crashes server         | server",
        "sim   | --value-bytes 0..5       | --value-bytes",
        "sim   | --value-bytes 9..x       | --value-bytes",
        "sim   | --validate-timeout 0     | --validate-timeout",
        "bench | farreach --servers x     | x",
        "bench | farreach --servers 16,y  | y",
        "bench | farreach --ops           | --ops",
        "bench | nosuchbench              | nosuchbench",
        "bench | farreach --bogus         | --bogus",
        "bench | farreach --exp 7         | --exp",
        "bench | farreach --keys 0        | --keys",
        "bench | farreach --keys 2147483000 | room for the keys Load and D insert",
        "demo  | --bogus                  | --bogus",
        "demo  | --seed x                 | x",
        "demo  | extra                    | extra",
        "conform | --protocol nocache     | nocache",
        "conform | --protocol foo         | foo",
        "conform | --target tofino        | tofino",
        "conform | --simulate x           | x",
        "conform | --traces /no/such.trace | /no/such.trace",
    })
    void badArgumentIsOneLineExitTwoAndRunsNothing(String which, String args, String named) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run("innet " + which, command(which), args.trim().split("\\s+"),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, code, e);
        assertEquals(1, e.strip().lines().count(), "one line: " + e);
        assertTrue(e.contains(named), "names '" + named + "': " + e);
        assertEquals("", out.toString(StandardCharsets.UTF_8), "nothing ran");
    }

    @ParameterizedTest(name = "{0} --help")
    @CsvSource({"sim", "bench", "demo", "conform"})
    void helpExitsZeroWithUsage(String which) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = Cli.run("innet " + which, command(which), new String[] {"--help"},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, code);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("Usage"), out.toString(StandardCharsets.UTF_8));
    }
}
