package dev.innet.verify;

/**
 * What a manifest line says a run must produce. A buggy variant is only useful if the checker
 * refutes it for the intended reason, so a violation expectation names the invariant.
 */
public sealed interface Expectation {
    /** TLC explores the whole model without a violation / ivy_check proves everything. */
    record Holds() implements Expectation {
        @Override
        public String toString() {
            return "ok";
        }
    }

    /** TLC must report a violation of exactly this invariant. */
    record Violates(String invariant) implements Expectation {
        @Override
        public String toString() {
            return "violates " + invariant;
        }
    }

    /** ivy_check must fail (a buggy Ivy variant is refuted). */
    record ProofFails() implements Expectation {
        @Override
        public String toString() {
            return "fails";
        }
    }
}
