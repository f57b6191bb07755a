package dev.innet.pegasus.spec;

import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecReplay;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Pegasus across racks (§7): specs/pegasus/PegasusChain.tla and its replay on two rack switches, a core
 * and the chain's servers and clients ({@link PegasusChainReplay}).
 */
public final class PegasusChainConformance implements SpecConformance {
    private final Function<ReplayTarget, SpecReplay> replays;

    public PegasusChainConformance() {
        this(PegasusChainReplay::new);
    }

    /** @param replays the replay to run on each target (tests pass one whose nodes carry a seeded bug) */
    public PegasusChainConformance(Function<ReplayTarget, SpecReplay> replays) {
        this.replays = replays;
    }

    @Override
    public String spec() {
        return "specs/pegasus/PegasusChain.tla";
    }

    /**
     * The model whose key is not replicated inside racks (2 racks of 1 server, 2 writes, a read, a loss, a
     * duplicate); the one whose tail adds the key while its switch stamps other keys' versions (P-20); client
     * write retries with at-most-once at each rack's detector (MCPegasusChainAMO), also across a rack failure
     * (MCPegasusChainAMOFail); a rack failure and the service's reconfiguration (MCPegasusChainFail); the
     * tail's MarkRemove and removal (MCPegasusChainRemove), also with a failure (MCPegasusChainFailRemove);
     * and its virtual write (MCPegasusChainVW), also with a failure (MCPegasusChainFailVW); issue 16's removal
     * rewrite at a tail that heads the key (MCPegasusChainRewrite: one rack). The models replicated from the start send a write to any set
     * of a rack's servers, each passing it down; the implementation's detector alone does (PegasusChainReplay
     * says so per step).
     */
    @Override
    public List<String> conformanceModels() {
        return List.of("MCPegasusChain", "MCPegasusChainAdd", "MCPegasusChainAMO", "MCPegasusChainAMOFail",
                "MCPegasusChainFail", "MCPegasusChainRemove", "MCPegasusChainFailRemove", "MCPegasusChainVW",
                "MCPegasusChainFailVW", "MCPegasusChainRewrite");
    }

    /**
     * The actions without a replay step: none. The instances the replay cannot force are refused per step,
     * with the reason.
     */
    @Override
    public Map<String, String> notReplayable() {
        return Map.of();
    }

    @Override
    public SpecReplay newReplay(ReplayTarget target) {
        return replays.apply(target);
    }
}
