package dev.innet.pegasus.chain;

import dev.innet.pegasus.controller.PegasusController;
import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.sim.NodeContext;
import dev.innet.switchapi.SwitchHandle;

/**
 * One rack's controller in a chain (§7): the rack's own Pegasus controller (its switch's CPU port, its
 * directory), replicating only keys whose reads this rack serves, i.e. whose chain ends here. Reads go
 * to the tail only, so a replica elsewhere would serve nothing; and it would be unsafe: a rack that is
 * not a key's tail answers no client, so Algorithm 2 there never sees its writes complete, and a
 * directory left behind would point reads at stale copies once a reconfiguration made the rack the
 * key's tail. Because views only ever drop racks, a rack that is a key's tail stays its tail while it
 * is live, and a rack that becomes a tail holds no directory entry for the key: its home has every write.
 */
public class ChainRackController extends PegasusController {
    private final int rack;
    private final ChainPlacement placement;
    private final HeldChainView view;
    private NodeContext ctx;

    public ChainRackController(Config config, SwitchHandle handle, int rack, ChainPlacement placement) {
        super(config, handle);
        this.rack = rack;
        this.placement = placement;
        this.view = new HeldChainView(placement.racks());
    }

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        view.load(context.durable());
        super.onStart(context);
    }

    @Override
    public void onPacket(byte[] bytes) {
        PegasusPacket p = PegasusPacket.decodeOrDrop(bytes, f -> true, () -> {});
        if (p != null && p.message().op() == PegasusOp.CHAIN_CONFIG) {
            ctx.network().send(p.frame().reply(view.onAnnouncement(p.message(), PegasusExt.NONE).encode()));
            return;
        }
        super.onPacket(bytes);
    }

    /** The view this controller holds (a spec replay checks every node adopted the service's). */
    public ChainView view() {
        return view.view();
    }

    /** Issue 16's removal rewrite is stamped by this rack's switch: only a rack that heads the key's chain may. */
    @Override
    protected boolean mayRewriteToEndRemoval(byte[] key) {
        return placement.headOf(key, view.view()) == rack;
    }

    /** Not final: a seeded-bug test replicates keys this rack does not serve (PegasusChainTest). */
    @Override
    protected boolean mayReplicate(byte[] key) {
        return placement.tailOf(key, view.view()) == rack;
    }
}
