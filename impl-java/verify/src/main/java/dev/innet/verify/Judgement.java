package dev.innet.verify;

/** Compares what a run produced with what its manifest line expects. */
record Judgement(ManifestEntry entry, RunOutcome outcome, boolean asExpected, String summary) {

    /**
     * An ok model that holds must also have taken every action its manifest line declares (covers=): a model
     * that never reaches an action checks nothing about it.
     */
    private static Judgement holds(ManifestEntry entry, RunOutcome outcome) {
        if (entry.kind() == ManifestEntry.Kind.IVY) {
            return new Judgement(entry, outcome, true, "proved");
        }
        if (!entry.covers().isEmpty()) {
            if (outcome.actions().isEmpty()) {
                return new Judgement(entry, outcome, false, "UNEXPECTED: declares covers= but reported no actions "
                        + "(its .cfg must check " + TlcRunner.ACTION_COVERAGE + ")");
            }
            java.util.List<String> missing = entry.covers().stream().filter(a -> !outcome.actions().contains(a)).toList();
            if (!missing.isEmpty()) {
                return new Judgement(entry, outcome, false, "UNEXPECTED: never takes " + String.join(", ", missing));
            }
        }
        String ok = entry.covers().isEmpty() ? "ok" : "ok, covers " + entry.covers().size() + " actions";
        return new Judgement(entry, outcome, true, entry.tier() == ManifestEntry.Tier.SIM
                ? ok + " (" + outcome.detail() + ")" : ok);
    }

    static Judgement of(ManifestEntry entry, RunOutcome outcome) {
        Expectation expected = entry.expectation();
        RunOutcome.Verdict verdict = outcome.verdict();
        if (verdict == RunOutcome.Verdict.ERROR) {
            return new Judgement(entry, outcome, false, "ERROR: " + outcome.detail());
        }
        return switch (expected) {
            case Expectation.Holds h -> switch (verdict) {
                case HOLDS -> holds(entry, outcome);
                // bounded model checking of a correct model: the bound is part of the claim
                case NO_TRACE -> new Judgement(entry, outcome, true, outcome.detail());
                case VIOLATED -> new Judgement(entry, outcome, false, "UNEXPECTED: violates " + outcome.violated());
                case PROOF_FAILED -> new Judgement(entry, outcome, false, "UNEXPECTED: proof fails: " + outcome.detail());
                case TRACE_FOUND -> new Judgement(entry, outcome, false, "UNEXPECTED: " + outcome.detail());
                case ERROR -> throw new AssertionError("handled above");
            };
            case Expectation.Violates v -> {
                if (verdict == RunOutcome.Verdict.VIOLATED && v.invariant().equals(outcome.violated())) {
                    String label = entry.isLimitation() ? " (known limitation)" : " (expected)";
                    String where = entry.tier() == ManifestEntry.Tier.SIM ? " " + outcome.detail() : "";
                    yield new Judgement(entry, outcome, true, "violates " + v.invariant() + label + where);
                }
                if (verdict == RunOutcome.Verdict.VIOLATED) {
                    yield new Judgement(entry, outcome, false,
                            "UNEXPECTED: violates " + outcome.violated() + ", expected " + v.invariant());
                }
                yield new Judgement(entry, outcome, false, "UNEXPECTED: no violation, expected " + v.invariant());
            }
            // A buggy Ivy variant is refuted by a failed inductive check or, under bounded model
            // checking, by a concrete trace from the initial state (the bug is reachable).
            case Expectation.ProofFails f -> switch (verdict) {
                case PROOF_FAILED -> new Judgement(entry, outcome, true, "refuted (expected)");
                case TRACE_FOUND -> new Judgement(entry, outcome, true, outcome.detail() + " (expected)");
                case NO_TRACE -> new Judgement(entry, outcome, false, "UNEXPECTED: " + outcome.detail());
                case HOLDS, VIOLATED -> new Judgement(entry, outcome, false, "UNEXPECTED: buggy variant proved");
                case ERROR -> throw new AssertionError("handled above");
            };
        };
    }
}
