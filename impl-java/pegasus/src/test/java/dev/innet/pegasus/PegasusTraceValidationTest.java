package dev.innet.pegasus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.pegasus.controller.PegasusController;
import dev.innet.pegasus.trace.PegasusTraceConversion;
import dev.innet.pegasus.trace.PegasusTraceConverter;
import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.workload.Workload;
import dev.innet.tracecheck.NdjsonTrace;
import dev.innet.tracecheck.TraceFormatException;
import dev.innet.tracecheck.TraceSettings;
import dev.innet.tracecheck.TraceValidator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Pegasus trace validation end to end (specs/pegasus/PegasusTrace.tla): a short rack run (3 servers, 6
 * clients, 4 keys, 60% reads, 5% deletes, a directory of 2 slots with hot threshold 2 and counters reset every
 * 1 ms, so keys are added, virtually written and marked for removal while they are read and written; lossy,
 * duplicating, reordering links) is converted and checked by TLC. Pegasus as written is accepted, issue 16's
 * removal rewrites included (the controller ends the removals still marked at the end of the run); servers
 * that apply lower versions (Pegasus.tla's BugAcceptLower, SeededBugs) are rejected at a serverWrite; a
 * malformed line is refused with its line number (unknown). The other seeded bugs, measured once with the
 * same settings, are in docs/conformance.md ("Trace validation", "Pegasus").
 *
 * <p>The removal rewrite (Pegasus.tla's RemovalRewrite, ServerRewrite, SwitchRewriteReply): rewrites that
 * race the key's client writes under the pause are accepted; the spec's refuted variants as implementation
 * bugs (the rewrite of home's copy, the rewrite without the pause) are rejected at the rewrite; a run edited
 * only in what the controller recorded (exp) or in what a server answered the controller's read is
 * rejected at that event.
 */
class PegasusTraceValidationTest {
    private static final Path SPECS = Path.of(System.getProperty("innet.root", "../.."), "specs", "pegasus");
    private static final long CHAOS = 8_000_000;

    private record Validated(TraceValidator.Result result, String trace) {}

    private static Validated validate(PegasusProtocol protocol, long seed, String name) throws Exception {
        return validate(protocol, null, seed, name);
    }

    private static Validated validate(PegasusProtocol protocol, Path program, long seed, String name) throws Exception {
        Path work = Path.of("target", "trace-validation", "pegasus-" + name);
        Path ndjson = work.resolve("run.ndjson");
        Rack.Builder b = new CampaignSettings(3, 6, 2, new Workload(4, 0.99, 0.6, 0.05, 16, 0), 2, 1_000_000, CHAOS,
                3_000_000, 20_000, CampaignSettings.LOSSY.withReorder(0.3, 80_000), CampaignSettings.LOSSY, true)
                .rack(RackRuns.root(), protocol, seed).recordTraceEvents(true).out(RackRuns.QUIET);
        if (program != null) {
            b.programSource(program);
        }
        Rack rack = b.build();
        rack.run();
        rack.simulation().writeTraceEvents(ndjson);
        TraceValidator.Result r = new TraceValidator(new PegasusTraceConversion(), SPECS, work.resolve("tlc"),
                Duration.ofSeconds(120), TraceSettings.rack(null)).validate(ndjson);
        System.out.println("pegasus " + name + ": " + r.summary());
        return new Validated(r, Files.readString(ndjson));
    }

    @Test
    void pegasusAsWrittenIsAccepted() throws Exception {
        Validated v = validate(new PegasusProtocol(), 1, "real-seed1");
        assertEquals(TraceValidator.Verdict.ACCEPTED, v.result().verdict(), v.result().summary());
        assertTrue(v.result().events() > 100, "a run too small to mean anything: " + v.result().summary());
        assertTrue(v.trace().contains(PegasusTraceEvents.CONTROLLER_REMOVAL_REWRITE),
                "the run took no removal rewrite, so it checks nothing of it");
    }

    @Test
    void serversApplyingLowerVersionsAreRejected() throws Exception {
        TraceValidator.Result rejected = null;
        for (long seed = 1; seed <= 5 && rejected == null; seed++) {
            Validated v = validate(SeededBugs.serversAcceptingLowerVersions(new PegasusProtocol()), seed,
                    "accept-lower-seed" + seed);
            if (v.result().verdict() == TraceValidator.Verdict.REJECTED) {
                rejected = v.result();
            } else {
                assertEquals(TraceValidator.Verdict.ACCEPTED, v.result().verdict(), v.result().summary());
            }
        }
        assertTrue(rejected != null, "no seed in 1..5 made the seeded bug visible to trace validation");
        assertTrue(rejected.failedDescription().startsWith("e=serverWrite"), rejected.summary());
    }

    /**
     * The real rewrite, started at the first period's end after the mark (while the key's clients still
     * write it, so the pause drops their writes and the newest copy is often off home): accepted, with
     * several rewrites.
     */
    @Test
    void eagerRewritesUnderThePauseAreAccepted() throws Exception {
        Validated v = validate(controllers(true, false), 1, "rewrite-eager-seed1");
        assertEquals(TraceValidator.Verdict.ACCEPTED, v.result().verdict(), v.result().summary());
        assertTrue(v.trace().split(PegasusTraceEvents.CONTROLLER_REMOVAL_REWRITE, -1).length > 2,
                "fewer than two removal rewrites in the run");
    }

    /**
     * Pegasus.tla's BugRewriteHomeCopy as an implementation bug: the controller writes home's copy instead of
     * the newest of the copies it read (eager rewrites under the pause, so that a write that ran on replicas
     * only is there to lose). The rewrite's RW then carries a value the spec's RemovalRewrite does not (the
     * newest store's), so the run is rejected where the switch stamps it.
     */
    @Test
    void aRewriteOfHomesCopyIsRejectedAtTheRewrite() throws Exception {
        assertRejectedAtTheRewrite(controllers(true, true), 6, "rewrite-home-copy", "e=rewrite");
    }

    /**
     * Pegasus.tla's BugRewriteNoDrain / BugRewriteUncond's missing pause as an implementation bug: the
     * controller rewrites without pausing the key's writes, at the first period after the mark so that it
     * races them. A client write of the key is then in flight when the rewrite is stamped (Drained fails),
     * or lands at home between the controller's read and the stamp (exp is not home's version), or after it
     * (home applies a rewrite the spec's would not): rejected at one of the rewrite's events. Most seeds do
     * not show it: no client write races the rewrite (accepted), or one ends the removal during the
     * controller's reads and the rewrite is stamped after (refused as unknown, as the converter must for
     * the correct controller's rare race). Measured once, seeds 1-30: rejected 16 (at the rewrite) and 17
     * (at its reply), unknown 1, 4, 11, 22, 23, 28, 30, the others accepted.
     */
    @Test
    void anUnpausedRewriteIsRejectedAtTheRewrite() throws Exception {
        assertRejectedAtTheRewrite(controllers(false, false), 20, "rewrite-unpaused", "e=rewrite", "e=serverRewrite",
                "e=rewriteReply");
    }

    /**
     * The rewrite's new checks fail on a run that differs from the spec only there: the accepted run of
     * seed 1 with its controller's recorded exp raised by one (rejected where the switch stamps the
     * rewrite, since the spec's RW carries the version home holds), and, separately, with one server's
     * answer to the controller's read claiming a version it does not hold (rejected at that answer).
     */
    @Test
    void aRewriteRecordedOtherwiseThanTheSpecsIsRejectedThere() throws Exception {
        Validated v = validate(new PegasusProtocol(), 1, "rewrite-tamper-base");
        assertEquals(TraceValidator.Verdict.ACCEPTED, v.result().verdict(), v.result().summary());
        String exp = tamper(v.trace(), "\"event\":\"" + PegasusTraceEvents.CONTROLLER_REMOVAL_REWRITE + "\"", "exp");
        assertTrue(validateFile(exp, "rewrite-tamper-exp").failedDescription().startsWith("e=rewrite "));
        String read = tamper(v.trace(), "\"event\":\"" + PegasusTraceEvents.SERVER_READ + "\",\"src\":254", "replyVer");
        assertTrue(validateFile(read, "rewrite-tamper-read").failedDescription().startsWith("e=rewriteRead "));
    }

    /** The trace with the numeric field {@code field} of the first line containing {@code marker} raised by one. */
    private static String tamper(String trace, String marker, String field) {
        StringBuilder out = new StringBuilder();
        boolean done = false;
        for (String line : trace.split("\n", -1)) {
            if (!done && line.contains(marker)) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"" + field + "\":(\\d+)").matcher(line);
                assertTrue(m.find(), "no " + field + " in " + line);
                line = line.substring(0, m.start(1)) + (Long.parseLong(m.group(1)) + 1) + line.substring(m.end(1));
                done = true;
            }
            out.append(line).append('\n');
        }
        assertTrue(done, "no line with " + marker);
        return out.toString().stripTrailing() + "\n";
    }

    private static TraceValidator.Result validateFile(String trace, String name) throws Exception {
        Path work = Path.of("target", "trace-validation", "pegasus-" + name);
        Files.createDirectories(work);
        Path ndjson = work.resolve("run.ndjson");
        Files.writeString(ndjson, trace);
        TraceValidator.Result r = new TraceValidator(new PegasusTraceConversion(), SPECS, work.resolve("tlc"),
                Duration.ofSeconds(120), TraceSettings.rack(null)).validate(ndjson);
        System.out.println("pegasus " + name + ": " + r.summary());
        assertEquals(TraceValidator.Verdict.REJECTED, r.verdict(), r.summary());
        return r;
    }

    private static PegasusProtocol controllers(boolean pauses, boolean homeCopy) {
        return new PegasusProtocol().withControllers((config, handle) -> new PegasusController(config, handle) {
            @Override
            protected boolean pausesRemovalRewrite() {
                return pauses;
            }

            @Override
            protected int removalRewritePeriods() {
                return 1; // at the first period's end after the mark: the rewrite races the key's writes
            }

            @Override
            protected boolean rewritesHomeCopy() {
                return homeCopy;
            }
        });
    }

    /** Seeds 1, 2, ... up to {@code seeds}: the first rejection must be at one of the events {@code at}. */
    private static void assertRejectedAtTheRewrite(PegasusProtocol buggy, int seeds, String name, String... at)
            throws Exception {
        TraceValidator.Result rejected = null;
        for (long seed = 1; seed <= seeds && rejected == null; seed++) {
            Validated v = validate(buggy, seed, name + "-seed" + seed);
            if (v.result().verdict() == TraceValidator.Verdict.REJECTED) {
                rejected = v.result();
            }
        }
        assertTrue(rejected != null, "no seed in 1.." + seeds + " made the seeded bug visible to trace validation");
        String failed = rejected.failedDescription();
        assertTrue(java.util.Arrays.stream(at).anyMatch(failed::startsWith), rejected.summary());
    }

    @Test
    void malformedEventsGiveAClearError() throws Exception {
        Path bad = Path.of("target", "trace-validation", "pegasus-malformed.ndjson");
        Files.createDirectories(bad.getParent());
        Files.writeString(bad, "{\"time\":1,\"host\":9,\"incarnation\":0,\"event\":\"pegControllerStart\",\"servers\":\"1,2\"}\n"
                + "{\"time\":5,\"host\":0,\"incarnation\":0,\"event\":\"switchUdpIn\",\"src\":3,\"dst\":1,"
                + "\"ipId\":0,\"payload\":\"zz\"}\n");
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> new PegasusTraceConverter().convert(NdjsonTrace.read(bad)));
        assertTrue(e.getMessage().startsWith("line 2: not a Pegasus message"), e.getMessage());
        TraceValidator.Result r = new TraceValidator(new PegasusTraceConversion(), SPECS,
                bad.resolveSibling("pegasus-malformed-tlc"), Duration.ofSeconds(10), TraceSettings.rack(null)).validate(bad);
        assertEquals(TraceValidator.Verdict.UNKNOWN, r.verdict(), r.summary());
    }
}
