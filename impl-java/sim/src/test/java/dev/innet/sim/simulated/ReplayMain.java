package dev.innet.sim.simulated;

import dev.innet.sim.testnodes.GossipNode;

/**
 * Replays a determinism-test scenario in its own JVM and prints its event-log hash, for
 * {@link DeterminismCheck#hashInFreshJvm}. Arguments: the gossip mode (a {@link GossipNode.Mode} name) and the seed.
 */
public final class ReplayMain {
    private ReplayMain() {
    }

    public static void main(String[] args) {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: ReplayMain <gossip mode> <seed>");
        }
        GossipNode.Mode mode = GossipNode.Mode.valueOf(args[0]);
        long seed = Long.parseLong(args[1]);
        Simulation sim = DeterminismTest.gossip(Simulation.builder(seed).out(null), mode);
        System.out.println(DeterminismCheck.HASH_LINE_PREFIX + sim.eventLogHash());
    }
}
