package dev.innet.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs real TLC (and, where ./innet setup has installed it, real ivy_check) on tiny fixtures: the
 * runner must pass what holds, refute what it should, flag surprises, and refuse bad arguments
 * before it runs anything.
 */
class VerifyMainTest {
    private static final Path FIXTURES = Path.of("src/test/resources/fixtures").toAbsolutePath();
    private static final Path IVY_CHECK = Path.of(System.getProperty("innet.root", "../.."))
            .resolve(".cache/venv/bin/ivy_check");

    private record Run(int exit, String out, String err) {}

    private static Run verify(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = VerifyMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Exit 2, one stderr line naming {@code mustName}, and nothing run (no output at all). */
    private static void assertArgumentError(Run r, String mustName) {
        assertEquals(VerifyMain.EXIT_USAGE, r.exit(), r.out() + r.err());
        assertEquals(1, r.err().lines().count(), "exactly one line on stderr: " + r.err());
        assertTrue(r.err().startsWith("innet verify: "), r.err());
        assertTrue(r.err().contains(mustName), "the error names '" + mustName + "': " + r.err());
        assertEquals("", r.out(), "nothing may run after a bad argument");
    }

    private static String counter() {
        return FIXTURES.resolve("counter").toString();
    }

    @Test
    void correctModelPassesAndBuggyVariantIsRefutedWithItsInvariant() {
        Run run = verify(counter());
        assertEquals(VerifyMain.EXIT_ALL_AS_EXPECTED, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("violates BelowLimit (expected)"), run.out());
        // Limit = 5 without the bug: x = 0..5, six distinct states, as TLC counts them.
        assertTrue(run.out().matches("(?s).*MCCounter: ok \\([\\d.]+s, 6 states\\).*"), run.out());
        assertTrue(run.out().contains("2 runs: 2 as expected, 0 unexpected"), run.out());
    }

    @Test
    void wrongExpectationsAreReportedAndFailTheRun() {
        Run run = verify(FIXTURES.resolve("wrongexpect").toString());
        assertEquals(VerifyMain.EXIT_UNEXPECTED, run.exit(), run.out());
        assertTrue(run.out().contains("UNEXPECTED: no violation, expected BelowLimit"), run.out());
        assertTrue(run.out().contains("UNEXPECTED: violates BelowLimit, expected TypeOK"), run.out());
    }

    @Test
    void singleModelFileSelectsOnlyThatModel() {
        Run run = verify(FIXTURES.resolve("counter/MCCounter_Skip.tla").toString());
        assertEquals(VerifyMain.EXIT_ALL_AS_EXPECTED, run.exit(), run.out());
        assertTrue(run.out().contains("1 runs: 1 as expected"), run.out());
    }

    @Test
    void aModelThatNeverTakesADeclaredActionFailsAndTakenActionsAreListed() {
        Run run = verify(FIXTURES.resolve("coverage").toString());
        assertEquals(VerifyMain.EXIT_UNEXPECTED, run.exit(), run.out());
        assertTrue(run.out().contains("MCCovered: ok, covers 1 actions"), run.out());
        assertTrue(run.out().contains("MCVacuous: UNEXPECTED: never takes Never"), run.out());
        assertTrue(run.out().contains("coverage/MCCovered (2): Inc Init"), run.out());
    }

    @Test
    void livenessViolationMatchesTheOnlyPropertyAndIsAmbiguousWithSeveral() {
        Run run = verify(FIXTURES.resolve("liveness").toString());
        assertEquals(VerifyMain.EXIT_UNEXPECTED, run.exit(), run.out());
        assertTrue(run.out().contains("MCWalk: ok"), run.out());
        assertTrue(run.out().contains("MCWalk_Stall: violates Arrives (expected)"), run.out());
        assertTrue(run.out().contains("MCWalk_Two: UNEXPECTED: violates a temporal property (TLC does not say which of "
                + "Arrives, AlwaysArrives), expected Arrives"), run.out());
    }

    @Test
    void simulationOptionsAreCheckedBeforeAnythingRuns() {
        assertArgumentError(verify("--simulate", "0", counter()), "--simulate");
        assertArgumentError(verify("--simulate", "1", "--full", counter()), "--simulate");
        assertArgumentError(verify("--depth", "10", counter()), "--depth");
    }

    @Test
    void helpExitsZeroAndListsTheOptions() {
        Run run = verify("--help");
        assertEquals(VerifyMain.EXIT_ALL_AS_EXPECTED, run.exit(), run.err());
        for (String option : new String[] {"--full", "--tier", "--jobs", "--ivy-bmc", "--dry-run", "--simulate", "--depth", "--seed", "PATH"}) {
            assertTrue(run.out().contains(option), option + " missing from the usage: " + run.out());
        }
    }

    @Test
    void dryRunListsTheSelectionAndRunsNothing() {
        Run run = verify("--dry-run", "--tier", "all", counter());
        assertEquals(VerifyMain.EXIT_ALL_AS_EXPECTED, run.exit(), run.err());
        assertTrue(run.out().contains("2 runs, tier all (dry run"), run.out());
        assertTrue(run.out().contains("counter/MCCounter_Skip  small  violates BelowLimit"), run.out());
        assertFalse(run.out().contains("[1/2]"), "a dry run must not start a checker: " + run.out());
    }

    /** The default is the small tier; the medium tier runs when asked for, alone or in a comma list. */
    @Test
    void defaultSelectionIsTheSmallTierAndMediumRunsOnRequest(@org.junit.jupiter.api.io.TempDir Path dir)
            throws java.io.IOException {
        for (String f : new String[] {"Counter.tla", "MCCounter.tla", "MCCounter.cfg", "MCCounter_Skip.tla", "MCCounter_Skip.cfg"}) {
            Files.copy(FIXTURES.resolve("counter").resolve(f), dir.resolve(f));
        }
        Files.writeString(dir.resolve("MANIFEST"),
                "MCCounter medium ok Limit = 5\nMCCounter_Skip small violates BelowLimit counter jumps by two\n");
        Run byDefault = verify("--dry-run", dir.toString());
        assertEquals(VerifyMain.EXIT_ALL_AS_EXPECTED, byDefault.exit(), byDefault.err());
        assertTrue(byDefault.out().contains("1 runs, tier small (dry run"), byDefault.out());
        assertFalse(byDefault.out().contains("/MCCounter  "), "a medium model by default: " + byDefault.out());
        Run medium = verify("--dry-run", "--tier", "medium", dir.toString());
        assertTrue(medium.out().contains("1 runs, tier medium (dry run"), medium.out());
        assertTrue(medium.out().contains("/MCCounter  medium  ok"), medium.out());
        Run both = verify("--dry-run", "--tier", "small,medium", dir.toString());
        assertTrue(both.out().contains("2 runs, tier small+medium (dry run"), both.out());
        assertArgumentError(verify("--tier", "small,", dir.toString()), "small,");
    }

    /** Runs start with whole-space searches, then Ivy proofs, then buggy variants (which stop early). */
    @Test
    void longRunsStartFirst() {
        Path d = Path.of("/nowhere");
        ManifestEntry bug = new ManifestEntry(d, ManifestEntry.Kind.TLC, "MC_Bug", ManifestEntry.Tier.SMALL,
                new Expectation.Violates("Inv"), java.util.List.of(), "", 1);
        ManifestEntry ivy = new ManifestEntry(d, ManifestEntry.Kind.IVY, "p.ivy", ManifestEntry.Tier.SMALL,
                new Expectation.Holds(), java.util.List.of(), "", 2);
        ManifestEntry ok = new ManifestEntry(d, ManifestEntry.Kind.TLC, "MCOk", ManifestEntry.Tier.SMALL,
                new Expectation.Holds(), java.util.List.of(), "", 3);
        ManifestEntry bug2 = new ManifestEntry(d, ManifestEntry.Kind.TLC, "MC_Bug2", ManifestEntry.Tier.SMALL,
                new Expectation.Violates("Inv"), java.util.List.of(), "", 4);
        assertEquals(java.util.List.of(ok, ivy, bug, bug2), VerifyMain.longestFirst(java.util.List.of(bug, ivy, ok, bug2)));
    }

    @Test
    void unknownOption() {
        assertArgumentError(verify("--bogus", counter()), "--bogus");
    }

    @Test
    void nonNumberJobs() {
        assertArgumentError(verify("--jobs", "two", counter()), "two");
    }

    @Test
    void jobsBelowOne() {
        assertArgumentError(verify("--jobs", "0", counter()), "--jobs");
    }

    @Test
    void missingValue() {
        assertArgumentError(verify(counter(), "--jobs"), "--jobs");
        assertArgumentError(verify(counter(), "--tier"), "--tier");
    }

    @Test
    void unknownTier() {
        assertArgumentError(verify("--tier", "huge", counter()), "huge");
    }

    @Test
    void fullAndTierTogether() {
        assertArgumentError(verify("--full", "--tier", "all", counter()), "--full");
    }

    @Test
    void pathThatDoesNotExist() {
        assertArgumentError(verify(FIXTURES.resolve("nonexistent").toString()), "no such spec, model directory or file");
        assertArgumentError(verify("--dry-run", counter(), FIXTURES.resolve("nonexistent").toString()), "nonexistent");
    }

    @Test
    void directoryWithoutManifest() {
        assertArgumentError(verify(FIXTURES.resolve("counter").resolve("..").resolve("..").toString()), "MANIFEST");
    }

    @Test
    void ivyBmcNeedsAPositiveNumberAndIvyModels() {
        assertArgumentError(verify("--ivy-bmc", "x", FIXTURES.resolve("lamp").toString()), "'x'");
        assertArgumentError(verify("--ivy-bmc", "0", FIXTURES.resolve("lamp").toString()), "--ivy-bmc");
        assertArgumentError(verify("--ivy-bmc", "3", counter()), "--ivy-bmc");
    }

    @Test
    void ivyProofProvesTheModelAndRefutesTheBug() {
        Assumptions.assumeTrue(Files.isExecutable(IVY_CHECK), "ivy_check is installed by ./innet setup");
        Run run = verify(FIXTURES.resolve("lamp").toString());
        assertEquals(VerifyMain.EXIT_ALL_AS_EXPECTED, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("lamp.ivy: proved"), run.out());
        assertTrue(run.out().contains("lamp_bug_disarm.ivy: refuted (expected)"), run.out());
    }

    @Test
    void ivyBoundedModelCheckingFindsTheBugsTraceAndNoneForTheModel() {
        Assumptions.assumeTrue(Files.isExecutable(IVY_CHECK), "ivy_check is installed by ./innet setup");
        Run run = verify("--ivy-bmc", "4", FIXTURES.resolve("lamp").toString());
        assertEquals(VerifyMain.EXIT_ALL_AS_EXPECTED, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("lamp.ivy: no trace in 4 steps"), run.out());
        // arm, light, disarm
        assertTrue(run.out().contains("lamp_bug_disarm.ivy: trace of 3 steps (expected)"), run.out());
    }

    @Test
    void ivyBoundedModelCheckingTooShortForTheBugIsUnexpected() {
        Assumptions.assumeTrue(Files.isExecutable(IVY_CHECK), "ivy_check is installed by ./innet setup");
        Run run = verify("--ivy-bmc", "2", FIXTURES.resolve("lamp/lamp_bug_disarm.ivy").toString());
        assertEquals(VerifyMain.EXIT_UNEXPECTED, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("UNEXPECTED: no trace in 2 steps"), run.out());
    }
}
