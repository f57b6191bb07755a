package dev.innet.verify;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs {@code ivy_check} from the project's virtual environment on one Ivy file, in one of two ways:
 * <ul>
 *   <li>{@link #prove}: the inductive check. ivy_check prints "OK" and exits 0 when every check is
 *       proved, and prints "FAIL" lines and exits non-zero otherwise; both markers are required to
 *       agree, so a crash is never mistaken for a refutation. A check's "... FAIL" line settles the
 *       verdict when it appears (an unproved check is a failed proof whatever follows), so the run is
 *       stopped there: a refuted variant costs the checks up to its first failure, not all of them.</li>
 *   <li>{@link #boundedModelCheck}: {@code method=bmc[N]}, a search for a concrete trace of at most N
 *       steps from the initial state that breaks a safety invariant (one whose comment line starts
 *       with {@code # safety:}) or an assertion. ivy_check exits 0 whether or not it finds one, so
 *       the verdict comes from its output alone: "BMC with bound K found a counter-example" or
 *       "BOUNDED" followed by "OK".</li>
 * </ul>
 * The expected outputs are documented, as measured, in docs/models.md.
 */
final class IvyRunner {
    private static final Pattern FAIL_LINE = Pattern.compile("(?m)^.*FAIL.*$");
    /** How ivy_check reports one check it could not prove: {@code file.ivy: line N: name ... FAIL}. */
    static final Pattern FAILED_CHECK = Pattern.compile("\\.\\.\\. FAIL\\s*$");
    private static final Pattern CHECKED = Pattern.compile("(?m)^\\s*(?:invariant|guarantee)\\s+\\[([\\w.]+)\\]");
    private static final Pattern INVARIANT_LINE = Pattern.compile("^\\s*invariant\\s*\\[.*");
    private static final Pattern SAFETY_COMMENT = Pattern.compile("^\\s*# safety:.*");
    private static final Pattern TRACE_FOUND = Pattern.compile("(?m)^BMC with bound (\\d+) found a counter-example");

    private final Path ivyCheck;
    private final Path workRoot;

    IvyRunner(Path ivyCheck, Path workRoot) {
        this.ivyCheck = ivyCheck;
        this.workRoot = workRoot;
    }

    /** The inductive proof of every invariant and assertion in the file. */
    RunOutcome prove(ManifestEntry entry, Duration limit) throws IOException, InterruptedException {
        Path log = logOf(entry, "");
        if (!Files.isExecutable(ivyCheck)) {
            return missingIvyCheck(log);
        }
        List<String> checked = declaredInvariants(Files.readString(entry.directory().resolve(entry.model())));
        // unbuffered, so that each check's line reaches the log when it is decided: the first failed check
        // settles the verdict, and the run stops there (a refuted variant need not check the rest)
        ToolProcess.Result result = ToolProcess.run(List.of(ivyCheck.toString(), entry.model()), entry.directory(),
                log, limit, Map.of("PYTHONUNBUFFERED", "1"), FAILED_CHECK);
        if (result.timedOut()) {
            return timedOut(checked, result, limit, log);
        }
        String out = result.output();
        boolean saysOk = out.lines().anyMatch(l -> l.strip().equals("OK"));
        Matcher fail = FAIL_LINE.matcher(out);
        boolean saysFail = fail.find();
        RunOutcome.Verdict verdict;
        String detail = "";
        if (result.stoppedEarly() && saysFail) {
            verdict = RunOutcome.Verdict.PROOF_FAILED;
            detail = fail.group().strip() + " (stopped at the first failed check)";
        } else if (result.exitCode() == 0 && saysOk && !saysFail) {
            verdict = RunOutcome.Verdict.HOLDS;
        } else if (result.exitCode() != 0 && saysFail) {
            verdict = RunOutcome.Verdict.PROOF_FAILED;
            detail = fail.group().strip();
        } else {
            verdict = RunOutcome.Verdict.ERROR;
            detail = "ivy_check exit code " + result.exitCode() + " without a matching OK/FAIL verdict: "
                    + lastLine(out);
        }
        return outcome(verdict, checked, result, detail, log);
    }

    /**
     * Bounded model checking for {@code steps} steps from the initial state, on a copy of the file
     * that keeps only the safety invariants: the supporting ones exist for the induction, and a
     * trace must break a property we care about, not a proof device. The copy lives under the work
     * directory, so the model's own directory is never written.
     */
    RunOutcome boundedModelCheck(ManifestEntry entry, int steps, Duration limit)
            throws IOException, InterruptedException {
        Path log = logOf(entry, ".bmc" + steps);
        if (!Files.isExecutable(ivyCheck)) {
            return missingIvyCheck(log);
        }
        String safetyOnly = safetyInvariantsOnly(Files.readString(entry.directory().resolve(entry.model())));
        List<String> checked = declaredInvariants(safetyOnly);
        Path runDirectory = workRoot.resolve("bmc").resolve(entry.spec());
        Files.createDirectories(runDirectory);
        Files.writeString(runDirectory.resolve(entry.model()), safetyOnly);
        ToolProcess.Result result = ToolProcess.run(
                List.of(ivyCheck.toString(), "method=bmc[" + steps + "]", entry.model()), runDirectory, log, limit);
        if (result.timedOut()) {
            return timedOut(checked, result, limit, log);
        }
        BmcVerdict v = bmcVerdict(result.exitCode(), result.output(), steps);
        return outcome(v.verdict(), checked, result, v.detail(), log);
    }

    record BmcVerdict(RunOutcome.Verdict verdict, String detail) {}

    /** Reads a {@code method=bmc[steps]} run's verdict from its exit code and output. */
    static BmcVerdict bmcVerdict(int exitCode, String output, int steps) {
        Matcher trace = TRACE_FOUND.matcher(output);
        if (exitCode == 0 && trace.find()) {
            return new BmcVerdict(RunOutcome.Verdict.TRACE_FOUND, "trace of " + trace.group(1) + " steps");
        }
        boolean bounded = output.lines().anyMatch(l -> l.strip().equals("BOUNDED"));
        if (exitCode == 0 && bounded && lastLine(output).equals("OK")) {
            return new BmcVerdict(RunOutcome.Verdict.NO_TRACE, "no trace in " + steps + " steps");
        }
        return new BmcVerdict(RunOutcome.Verdict.ERROR, "ivy_check exit code " + exitCode
                + " without a BMC verdict (counter-example, or BOUNDED and OK): " + lastLine(output));
    }

    /**
     * The Ivy source without its supporting invariants: an {@code invariant [name]} line is kept only
     * if the last non-blank line before it is a {@code # safety:} comment. Everything else, line
     * numbers of the kept lines aside, is unchanged.
     */
    static String safetyInvariantsOnly(String source) {
        StringBuilder kept = new StringBuilder();
        String previousNonBlank = "";
        for (String line : source.split("\n", -1)) {
            boolean dropped = INVARIANT_LINE.matcher(line).matches() && !SAFETY_COMMENT.matcher(previousNonBlank).matches();
            if (!dropped) {
                kept.append(line).append('\n');
            }
            if (!line.isBlank()) {
                previousNonBlank = line;
            }
        }
        kept.setLength(kept.length() - 1); // split(-1) gave one more piece than there were newlines
        return kept.toString();
    }

    private Path logOf(ManifestEntry entry, String suffix) {
        return workRoot.resolve("logs").resolve(entry.spec()).resolve(entry.model() + suffix + ".log");
    }

    private RunOutcome missingIvyCheck(Path log) {
        return new RunOutcome(RunOutcome.Verdict.ERROR, null, OptionalLong.empty(), OptionalLong.empty(),
                OptionalLong.empty(), List.of(), 0, "ivy_check not found at " + ivyCheck + " (run ./innet setup)", log, List.of());
    }

    private static RunOutcome timedOut(List<String> checked, ToolProcess.Result result, Duration limit, Path log) {
        return outcome(RunOutcome.Verdict.ERROR, checked, result, "timed out after " + limit.toSeconds() + " s", log);
    }

    private static RunOutcome outcome(RunOutcome.Verdict verdict, List<String> checked, ToolProcess.Result result,
            String detail, Path log) {
        return new RunOutcome(verdict, null, OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
                checked, result.millis(), detail, log, List.of());
    }

    private static List<String> declaredInvariants(String source) {
        List<String> names = new ArrayList<>();
        Matcher m = CHECKED.matcher(source);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static String lastLine(String out) {
        String[] lines = out.strip().split("\n");
        return lines.length == 0 ? "" : lines[lines.length - 1].strip();
    }
}
