package dev.innet.verify;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs {@code ivy_check} from the project's virtual environment on one Ivy file. ivy_check prints
 * "OK" and exits 0 when every check is proved, and prints "FAIL" lines and exits non-zero
 * otherwise; both markers are required to agree, so a crash is never mistaken for a refutation.
 */
final class IvyRunner {
    private static final Pattern FAIL_LINE = Pattern.compile("(?m)^.*FAIL.*$");
    private static final Pattern CHECKED = Pattern.compile("(?m)^\\s*(?:invariant|guarantee)\\s+\\[([\\w.]+)\\]");

    private final Path ivyCheck;
    private final Path workRoot;

    IvyRunner(Path ivyCheck, Path workRoot) {
        this.ivyCheck = ivyCheck;
        this.workRoot = workRoot;
    }

    RunOutcome run(ManifestEntry entry, Duration limit) throws IOException, InterruptedException {
        Path log = workRoot.resolve("logs").resolve(entry.spec()).resolve(entry.model() + ".log");
        if (!Files.isExecutable(ivyCheck)) {
            return new RunOutcome(RunOutcome.Verdict.ERROR, null, OptionalLong.empty(), OptionalLong.empty(),
                    OptionalLong.empty(), List.of(), 0, "ivy_check not found at " + ivyCheck
                            + " (run ./innet setup)", log);
        }
        List<String> command = List.of(ivyCheck.toString(), entry.model());
        ToolProcess.Result result = ToolProcess.run(command, entry.directory(), log, limit);
        List<String> checked = declaredInvariants(entry.directory().resolve(entry.model()));
        if (result.timedOut()) {
            return new RunOutcome(RunOutcome.Verdict.ERROR, null, OptionalLong.empty(), OptionalLong.empty(),
                    OptionalLong.empty(), checked, result.millis(), "timed out after " + limit.toSeconds() + " s", log);
        }
        String out = result.output();
        boolean saysOk = out.lines().anyMatch(l -> l.strip().equals("OK"));
        Matcher fail = FAIL_LINE.matcher(out);
        boolean saysFail = fail.find();
        RunOutcome.Verdict verdict;
        String detail = "";
        if (result.exitCode() == 0 && saysOk && !saysFail) {
            verdict = RunOutcome.Verdict.HOLDS;
        } else if (result.exitCode() != 0 && saysFail) {
            verdict = RunOutcome.Verdict.PROOF_FAILED;
            detail = fail.group().strip();
        } else {
            verdict = RunOutcome.Verdict.ERROR;
            detail = "ivy_check exit code " + result.exitCode() + " without a matching OK/FAIL verdict: "
                    + lastLine(out);
        }
        return new RunOutcome(verdict, null, OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
                checked, result.millis(), detail, log);
    }

    private static List<String> declaredInvariants(Path file) throws IOException {
        List<String> names = new ArrayList<>();
        Matcher m = CHECKED.matcher(Files.readString(file));
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static String lastLine(String out) {
        String[] lines = out.strip().split("\n");
        return lines.length == 0 ? "" : lines[lines.length - 1];
    }
}
