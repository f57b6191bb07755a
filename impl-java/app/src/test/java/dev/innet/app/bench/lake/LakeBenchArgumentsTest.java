package dev.innet.app.bench.lake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A bad option to {@code ./innet bench lake} is one line naming it, exit 2, and nothing runs. */
class LakeBenchArgumentsTest {
    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run("innet bench lake", new LakeBench(), args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void badOptionsAreRefusedBeforeAnythingRuns() {
        for (String[] args : new String[][] {{"--seconds", "0"}, {"--threads", "-1"}, {"--rounds", "0"}, {"--keys", "x"},
                {"--bogus"}}) {
            String[] r = run(args);
            assertEquals("2", r[0], String.join(" ", args) + ": " + r[2]);
            assertTrue(r[1].isEmpty(), "nothing ran: " + r[1]);
            assertTrue(r[2].contains(args[0].replace("--", "")) || r[2].contains("Unknown option"), r[2]);
        }
    }
}
