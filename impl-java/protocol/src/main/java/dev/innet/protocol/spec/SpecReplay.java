package dev.innet.protocol.spec;

import java.util.Map;

/**
 * A protocol's refinement of its spec, as a replay: it performs each spec action on the real
 * implementation (the P4 program on a {@link ReplayTarget} and the protocol's Java nodes), and maps
 * the implementation's observable state back to spec variables, so the two can be compared after
 * every step. Written once per protocol, in the protocol's module (FarReach's:
 * {@code dev.innet.farreach.spec.FarReachReplay}).
 */
public interface SpecReplay {
    /** Brings the implementation to the spec's initial state ({@code step} is that state). */
    void init(SpecStep initial);

    /**
     * Performs {@code step}'s action on the implementation; {@code before} is the spec state it starts
     * from. Throws {@link NotReplayable} for an action this replay does not implement (with the reason),
     * and {@link ReplayException} when the implementation cannot do what the action says.
     */
    void perform(SpecStep before, SpecStep step);

    /**
     * The implementation's state, mapped to spec values, for the variables this replay checks: the
     * comparison is variable by variable against the spec state after each step.
     */
    Map<String, Object> observe();

    /**
     * The spec's value of {@code var} as this replay compares it: the identity, or a projection onto
     * what the implementation can show (e.g. only whether a client has an operation outstanding).
     */
    default Object projectSpec(String var, Object specValue) {
        return specValue;
    }

    /**
     * The spec's value of {@code var} in {@code state} as this replay compares it, for projections that
     * depend on other variables of the state (a register whose content is meaningful only while its
     * record is cached). By default {@link #projectSpec(String, Object)} of the variable alone.
     */
    default Object projectSpec(String var, SpecStep state) {
        return projectSpec(var, state.var(var));
    }

    /** The implementation did something the action does not allow, or could not do what it requires. */
    final class ReplayException extends RuntimeException {
        public ReplayException(String message) {
            super(message);
        }
    }

    /** An action this replay does not implement yet; the trace is reported as not replayed, never as passed. */
    final class NotReplayable extends RuntimeException {
        public NotReplayable(String message) {
            super(message);
        }
    }
}
