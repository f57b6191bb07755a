package dev.innet.conformance;

import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecReplay;
import dev.innet.protocol.spec.SpecStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Replays one spec behaviour on the implementation: the protocol's {@link SpecReplay} brings the
 * implementation to the initial state, performs each step's action, and after every step the
 * implementation's state (mapped to spec values) must equal the spec's, variable by variable. The
 * first difference ends the replay and is reported with the step, the action, the variable and both
 * values. An action the replay does not implement ends it as not replayed, which is never a pass.
 */
public final class Replayer {
    private Replayer() {}

    /** How a replay ended. */
    public sealed interface Result {
        /** Steps performed and checked (the initial state counts as step 0). */
        int steps();

        /** Every step replayed and every checked variable equal. */
        record Passed(int steps) implements Result {}

        /** The implementation differed from the spec, or could not do what the action requires. */
        record Failed(int steps, int step, String action, String variable, Object expected, Object actual,
                String message) implements Result {}

        /** The replay stopped at an action it does not implement. */
        record NotReplayed(int steps, int step, String action, String reason) implements Result {}
    }

    public static Result replay(SpecConformance protocol, Supplier<ReplayTarget> target, List<SpecStep> trace) {
        if (trace.isEmpty()) {
            throw new IllegalArgumentException("a trace has at least its initial state");
        }
        ReplayTarget t = target.get();
        try {
            return replay(protocol.newReplay(t), trace);
        } finally {
            // a target that holds resources (a P4Runtime server and its client) gives them back after its replay
            if (t instanceof AutoCloseable c) {
                try {
                    c.close();
                } catch (Exception e) {
                    throw new IllegalStateException("closing the replay target: " + e.getMessage(), e);
                }
            }
        }
    }

    private static Result replay(SpecReplay replay, List<SpecStep> trace) {
        SpecStep initial = trace.get(0);
        try {
            replay.init(initial);
        } catch (SpecReplay.NotReplayable e) {
            return new Result.NotReplayed(0, 0, "Init", e.getMessage());
        }
        Result.Failed diff = compare(replay, initial, 0);
        if (diff != null) {
            return diff;
        }
        for (int i = 1; i < trace.size(); i++) {
            SpecStep step = trace.get(i);
            try {
                replay.perform(trace.get(i - 1), step);
            } catch (SpecReplay.NotReplayable e) {
                return new Result.NotReplayed(i, i, step.actionName(), e.getMessage());
            } catch (SpecReplay.ReplayException e) {
                return new Result.Failed(i, i, step.actionName(), null, null, null, e.getMessage());
            }
            diff = compare(replay, step, i);
            if (diff != null) {
                return diff;
            }
        }
        return new Result.Passed(trace.size());
    }

    /** The first variable whose implementation value differs from the spec's, or null. */
    private static Result.Failed compare(SpecReplay replay, SpecStep step, int index) {
        Map<String, Object> observed = replay.observe();
        for (var e : observed.entrySet()) {
            Object expected = replay.projectSpec(e.getKey(), step);
            if (!Objects.equals(expected, e.getValue())) {
                return new Result.Failed(index, index, step.actionName(), e.getKey(), expected, e.getValue(),
                        "variable " + e.getKey() + " differs");
            }
        }
        return null;
    }

    /** Actions of a trace, in order (for coverage). */
    public static List<String> actions(List<SpecStep> trace) {
        List<String> out = new ArrayList<>();
        for (SpecStep s : trace) {
            out.add(s.actionName());
        }
        return out;
    }
}
