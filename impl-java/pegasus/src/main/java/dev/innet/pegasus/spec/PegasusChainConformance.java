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
     * duplicate), and the one whose tail adds the key while its switch stamps other keys' versions (P-20).
     * The models replicated from the start send a write to any set of a rack's servers, each passing it
     * down; the implementation's detector alone does (PegasusChainReplay says so per step).
     */
    @Override
    public List<String> conformanceModels() {
        return List.of("MCPegasusChain", "MCPegasusChainAdd");
    }

    /**
     * Rack failure and reconfiguration (RackFail, Reconfigure) are in the spec's failure models only
     * (MCPegasusChainFail*), and the tail's MarkRemove and virtual write (MarkRemoveAtTail,
     * VirtualWriteAtTail, ServerVirtualWrite) in MCPegasusChainRemove and MCPegasusChainVW* only, and
     * client write retries (RetryWrite) in MCPegasusChainAMO and its variants only; none of these is a
     * conformance model: the replay has no step for them yet.
     */
    @Override
    public Map<String, String> notReplayable() {
        return Map.of(
                "RackFail", "only the failure models (MCPegasusChainFail*) crash a rack; the replay has no step for it",
                "Reconfigure", "only the failure models (MCPegasusChainFail*) reconfigure; the replay has no step for it",
                "MarkRemoveAtTail", "only MCPegasusChainRemove marks the key at the tail; the replay has no step for it",
                "VirtualWriteAtTail", "only MCPegasusChainVW* issue a virtual write; the replay has no step for it",
                "ServerVirtualWrite", "only MCPegasusChainVW* issue a virtual write; the replay has no step for it",
                "RetryWrite", "only MCPegasusChainAMO and its variants retry a write; the replay has no step for it");
    }

    @Override
    public SpecReplay newReplay(ReplayTarget target) {
        return replays.apply(target);
    }
}
