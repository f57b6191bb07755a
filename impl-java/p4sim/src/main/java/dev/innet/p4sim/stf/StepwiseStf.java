package dev.innet.p4sim.stf;

import dev.innet.p4sim.v1model.P4Switch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs an STF script whose {@code # step N} comment lines (as p4/tests/random_stf.py writes them) divide
 * it into steps, matching outputs at the end of every step and stopping at the first step that fails.
 * A whole-file run reports an extra packet only at the end of the file, and every later packet on that
 * port as a mismatch; matching per step names the step where switch and script first disagree.
 */
public final class StepwiseStf {
    private static final Pattern STEP = Pattern.compile("#\\s*step\\s+(\\d+)\\s*");

    private StepwiseStf() { }

    /** The first failing step ({@code 0} = the commands before the first marker) and its messages. */
    public record Failure(int step, List<String> messages) { }

    /** {@code steps}: how many step markers the script has; {@code failure}: empty if every step passed. */
    public record Outcome(int steps, Optional<Failure> failure) { }

    public static Outcome run(P4Switch sw, String fileName, String script) {
        String[] lines = StfRunner.lines(script);
        List<Integer> starts = new ArrayList<>();
        List<Integer> numbers = new ArrayList<>();
        starts.add(0);
        numbers.add(0);
        for (int i = 0; i < lines.length; i++) {
            Matcher m = STEP.matcher(lines[i].strip());
            if (m.matches()) {
                starts.add(i);
                numbers.add(Integer.parseInt(m.group(1)));
            }
        }
        StfRunner runner = new StfRunner(sw);
        for (int k = 0; k < starts.size(); k++) {
            int to = k + 1 < starts.size() ? starts.get(k + 1) : lines.length;
            // the runner's failures accumulate, but we stop at the first step that has any
            List<String> failures = runner.run(fileName, lines, starts.get(k), to);
            if (!failures.isEmpty()) {
                return new Outcome(starts.size() - 1, Optional.of(new Failure(numbers.get(k), List.copyOf(failures))));
            }
        }
        return new Outcome(starts.size() - 1, Optional.empty());
    }
}
