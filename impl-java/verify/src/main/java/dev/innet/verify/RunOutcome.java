package dev.innet.verify;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * What one checker run actually produced ({@code actions}: the action labels a TLC run reported taking,
 * sorted; empty when the model does not check ActionCoverage). Every figure here is parsed from that run's output;
 * a figure the run did not print stays empty and is shown as "-", never guessed.
 */
public record RunOutcome(Verdict verdict, String violated, OptionalLong distinctStates, OptionalLong generatedStates,
        OptionalLong depth, List<String> propertiesChecked, long millis, String detail, Path log, List<String> actions) {

    public enum Verdict {
        /** TLC: whole model explored, no violation. Ivy: all checks proved. */
        HOLDS,
        /** TLC reported a violated invariant or property (named in {@code violated}). */
        VIOLATED,
        /** ivy_check reported a failed check. */
        PROOF_FAILED,
        /** Ivy bounded model checking found a concrete trace from the initial state ({@code detail}: its length). */
        TRACE_FOUND,
        /** Ivy bounded model checking found no trace within its bound. */
        NO_TRACE,
        /** The tool could not give a verdict: parse error, crash, timeout, unexpected output. */
        ERROR
    }
}
