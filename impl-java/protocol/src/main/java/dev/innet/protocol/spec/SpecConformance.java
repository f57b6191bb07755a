package dev.innet.protocol.spec;

/** What a protocol offers the conformance suite: its spec and a replay of that spec on the implementation. */
public interface SpecConformance {
    /** The spec module, relative to the repository root ({@code specs/farreach/FarReach.tla}). */
    String spec();

    /**
     * The models (next to the spec) whose behaviours the conformance suite generates and replays by
     * default, smallest first.
     */
    java.util.List<String> conformanceModels();

    /**
     * A fresh replay on {@code target} (which runs this protocol's P4 program). The model's sets (keys,
     * clients) come from the initial state given to {@link SpecReplay#init}.
     */
    SpecReplay newReplay(ReplayTarget target);

    /**
     * The spec's actions the replay does not perform yet, each with the reason (reported in coverage).
     * A property of the protocol's replay, so asking needs no target.
     */
    default java.util.Map<String, String> notReplayable() {
        return java.util.Map.of();
    }
}
