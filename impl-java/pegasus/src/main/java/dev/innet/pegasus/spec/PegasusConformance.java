package dev.innet.pegasus.spec;

import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecReplay;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Pegasus's spec (specs/pegasus/Pegasus.tla; PegasusChain.tla's cross-rack chain is not implemented)
 * and its replay on the implementation.
 */
public final class PegasusConformance implements SpecConformance {
    private final Function<ReplayTarget, SpecReplay> replays;

    public PegasusConformance() {
        this(PegasusReplay::new);
    }

    /** @param replays the replay to run on each target (tests pass one whose nodes carry a seeded bug) */
    public PegasusConformance(Function<ReplayTarget, SpecReplay> replays) {
        this.replays = replays;
    }

    @Override
    public String spec() {
        return "specs/pegasus/Pegasus.tla";
    }

    /**
     * The at-most-once models (the implementation always runs S6.4): the core with a duplicate and a
     * retry, with a read, with the key moving in and out of the directory, the conformance-only model
     * that enables every action of Next but issue 16's removal rewrite at once, and the one with the
     * rewrite (mark, rewrite, add again). The models with at-most-once off send writes the implementation
     * never sends (no detector flag, several destinations), so they are not replayed.
     */
    @Override
    public List<String> conformanceModels() {
        return List.of("MCPegasusAMO", "MCPegasusAMOReads", "MCPegasusAMOMove", "MCPegasusConform",
                "MCPegasusConformRewrite");
    }

    @Override
    public Map<String, String> notReplayable() {
        return PegasusReplay.NOT_REPLAYABLE;
    }

    @Override
    public SpecReplay newReplay(ReplayTarget target) {
        return replays.apply(target);
    }
}
