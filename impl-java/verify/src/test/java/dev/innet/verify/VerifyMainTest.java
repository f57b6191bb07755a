package dev.innet.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Runs real TLC on tiny fixtures: the runner must pass what holds, refute what it should, and flag surprises. */
class VerifyMainTest {
    private static final Path FIXTURES = Path.of("src/test/resources/fixtures").toAbsolutePath();

    private record Run(int exit, String out, String err) {}

    private static Run verify(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = VerifyMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void correctModelPassesAndBuggyVariantIsRefutedWithItsInvariant() throws Exception {
        Run run = verify(FIXTURES.resolve("counter").toString());
        assertEquals(VerifyMain.EXIT_ALL_AS_EXPECTED, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("violates BelowLimit (expected)"), run.out());
        // Limit = 5 without the bug: x = 0..5, six distinct states, as TLC counts them.
        assertTrue(run.out().matches("(?s).*MCCounter: ok \\([\\d.]+s, 6 states\\).*"), run.out());
        assertTrue(run.out().contains("2 runs: 2 as expected, 0 unexpected"), run.out());
    }

    @Test
    void wrongExpectationsAreReportedAndFailTheRun() throws Exception {
        Run run = verify(FIXTURES.resolve("wrongexpect").toString());
        assertEquals(VerifyMain.EXIT_UNEXPECTED, run.exit(), run.out());
        assertTrue(run.out().contains("UNEXPECTED: no violation, expected BelowLimit"), run.out());
        assertTrue(run.out().contains("UNEXPECTED: violates BelowLimit, expected TypeOK"), run.out());
    }

    @Test
    void singleModelFileSelectsOnlyThatModel() throws Exception {
        Run run = verify(FIXTURES.resolve("counter/MCCounter_Skip.tla").toString());
        assertEquals(VerifyMain.EXIT_ALL_AS_EXPECTED, run.exit(), run.out());
        assertTrue(run.out().contains("1 runs: 1 as expected"), run.out());
    }

    @Test
    void missingPathIsAUsageError() throws Exception {
        Run run = verify(FIXTURES.resolve("nonexistent").toString());
        assertEquals(VerifyMain.EXIT_USAGE, run.exit());
        assertTrue(run.err().contains("no such spec"), run.err());
    }
}
