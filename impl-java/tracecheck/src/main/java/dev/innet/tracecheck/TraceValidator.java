package dev.innet.tracecheck;

import dev.innet.verify.RunOutcome;
import dev.innet.verify.TlcOutput;
import dev.innet.verify.TlcJvm;
import dev.innet.verify.ToolProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Java API of trace validation: a run's NDJSON in, TLC's decision out, for any protocol with a
 * {@link TraceConversion}. Converts the run, writes the model next to copies of the protocol's spec and
 * trace spec in a work directory, runs TLC in a child JVM (innet-verify's process handling and output
 * parser) and reads the verdict:
 * <ul>
 *   <li>ACCEPTED: TLC reached the end of the trace (CursorReport printed a cursor past the last event);</li>
 *   <li>REJECTED: TLC explored everything reachable without reaching the end; the first event no behaviour
 *       could match is named (the cursor's furthest position, printed by CursorReport);</li>
 *   <li>UNKNOWN: the run could not be converted, TLC failed or ran out of time. Never "accepted".</li>
 * </ul>
 */
public final class TraceValidator {
    private static final Pattern CURSOR = Pattern.compile("<<\"trace-cursor\", (\\d+)>>");

    public enum Verdict { ACCEPTED, REJECTED, UNKNOWN }

    /**
     * @param failedEvent 1-based index in the converted trace of the first event no behaviour matched (REJECTED),
     *                    else 0
     * @param failedLine  that event's line in the NDJSON file, else 0
     * @param events      events in the converted trace (0 if conversion failed)
     */
    public record Result(Verdict verdict, int events, int failedEvent, long failedLine, String failedDescription,
            long distinctStates, long millis, String detail, Path model) {
        public String summary() {
            return switch (verdict) {
                case ACCEPTED -> "accepted: the spec admits all " + events + " events (" + distinctStates + " states, "
                        + millis + " ms)";
                case REJECTED -> "rejected: no behaviour of the spec matches event " + failedEvent + " of " + events
                        + " (NDJSON line " + failedLine + ": " + failedDescription + ") (" + distinctStates + " states, "
                        + millis + " ms)";
                case UNKNOWN -> "unknown: " + detail;
            };
        }

        /** Unknown before any conversion or TLC run: {@code why}. */
        public static Result unknown(String why) {
            return new Result(Verdict.UNKNOWN, 0, 0, 0, "", 0, 0, why, null);
        }
    }

    private final TraceConversion conversion;
    private final Path specDirectory;
    private final Path workDirectory;
    private final Duration limit;
    private final TraceSettings settings;

    /**
     * @param conversion    the protocol's plug-in
     * @param specDirectory the directory with the protocol's spec and trace spec ({@link TraceConversion#specFiles})
     * @param workDirectory where the model, TLC's state and its log go
     */
    public TraceValidator(TraceConversion conversion, Path specDirectory, Path workDirectory, Duration limit,
            TraceSettings settings) {
        this.conversion = conversion;
        this.specDirectory = specDirectory.toAbsolutePath();
        this.workDirectory = workDirectory.toAbsolutePath();
        this.limit = limit;
        this.settings = settings;
    }

    /**
     * FarReach, as before trace validation covered other protocols.
     *
     * @param specDirectory   specs/farreach (FarReach.tla and FarReachTrace.tla)
     * @param workDirectory   where the model, TLC's state and its log go
     * @param cacheSize       the rack's cache capacity, or null (as many slots as keys)
     */
    public TraceValidator(Path specDirectory, Path workDirectory, Duration limit, long clientLinkNanos,
            Integer cacheSize) {
        this(new FarReachTraceConversion(), specDirectory, workDirectory, limit,
                new TraceSettings(clientLinkNanos, cacheSize));
    }

    public Result validate(Path ndjson) throws IOException, InterruptedException {
        ConvertedTrace run;
        try {
            run = conversion.convert(conversion.ownEvents(NdjsonTrace.read(ndjson)), settings);
        } catch (TraceFormatException e) {
            return Result.unknown("cannot convert " + ndjson + ": " + e.getMessage());
        }
        String name = "MCTrace";
        Files.createDirectories(workDirectory);
        for (String spec : conversion.specFiles()) {
            Files.copy(specDirectory.resolve(spec), workDirectory.resolve(spec), StandardCopyOption.REPLACE_EXISTING);
        }
        Path model = workDirectory.resolve(name + ".tla");
        for (Map.Entry<String, String> file : run.modelFiles(name).entrySet()) {
            Files.writeString(workDirectory.resolve(file.getKey()), file.getValue());
        }
        Path tmp = workDirectory.resolve("tmp");
        Files.createDirectories(tmp);
        // one worker: CursorReport's TLCGet/TLCSet register is per worker
        List<String> command = TlcJvm.command(TlcJvm.currentJava(), "2g", tmp, TlcJvm.Compilers.C1_ONLY);
        command.addAll(List.of("-tool", "-deadlock", "-workers", "1", "-metadir",
                workDirectory.resolve("states").toString(), "-config", name + ".cfg", name + ".tla"));
        ToolProcess.Result tlc = ToolProcess.run(command, workDirectory, workDirectory.resolve("tlc.log"), limit);
        int events = run.steps().size();
        if (tlc.timedOut()) {
            return new Result(Verdict.UNKNOWN, events, 0, 0, "", 0, tlc.millis(),
                    "TLC timed out after " + limit.toSeconds() + " s (log " + workDirectory.resolve("tlc.log") + ")", model);
        }
        TlcOutput.Parsed parsed = TlcOutput.parse(tlc.output(), tlc.exitCode());
        long distinct = parsed.distinct().orElse(0);
        int cursor = furthestCursor(tlc.output());
        // a cursor past the last event: some behaviour matched the whole trace (the spec then stops TLC);
        // a violated TraceNotFinished says the same for models that check it
        if (cursor == events + 1
                || (parsed.verdict() == RunOutcome.Verdict.VIOLATED && "TraceNotFinished".equals(parsed.violated()))) {
            return new Result(Verdict.ACCEPTED, events, 0, 0, "", distinct, tlc.millis(), "", model);
        }
        if (parsed.verdict() == RunOutcome.Verdict.HOLDS) {
            if (cursor < 1 || cursor > events) {
                return new Result(Verdict.UNKNOWN, events, 0, 0, "", distinct, tlc.millis(),
                        "TLC found no behaviour to the end but printed no usable cursor (" + cursor + ")", model);
            }
            Map<String, Object> stuck = run.steps().get(cursor - 1);
            return new Result(Verdict.REJECTED, events, cursor, (Long) stuck.get("src"), run.describe(stuck), distinct,
                    tlc.millis(), "", model);
        }
        return new Result(Verdict.UNKNOWN, events, 0, 0, "", distinct, tlc.millis(), "TLC: " + parsed.detail()
                + (parsed.violated() != null ? " (violated " + parsed.violated() + ")" : "") + " (log "
                + workDirectory.resolve("tlc.log") + ")", model);
    }

    static int furthestCursor(String output) {
        int max = 0;
        Matcher m = CURSOR.matcher(output);
        while (m.find()) {
            max = Math.max(max, Integer.parseInt(m.group(1)));
        }
        return max;
    }
}
