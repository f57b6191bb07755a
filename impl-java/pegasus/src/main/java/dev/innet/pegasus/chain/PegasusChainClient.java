package dev.innet.pegasus.chain;

import dev.innet.pegasus.PegasusRack;
import dev.innet.pegasus.client.PegasusClient;
import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpKind;
import dev.innet.wire.InnetPacket;

/**
 * The Pegasus client across racks (§7): as chain replication has it, writes go to the key's home in the
 * head rack of its chain and reads to its home in the tail rack; each rack's switch may redirect or
 * replicate from there. The chains come from the configuration service's announcements
 * ({@link PegasusOp#CHAIN_CONFIG} on the control port), kept durably so a restarted client does not
 * address a removed rack; every attempt is addressed under the newest view.
 */
public final class PegasusChainClient extends PegasusClient {
    private final ChainPlacement placement;
    private final HeldChainView view;

    /** @param rack the rack settings (timeouts, attempts); its servers are every rack's */
    public PegasusChainClient(NodeContext ctx, PegasusRack rack, ChainPlacement placement, HistoryRecorder history) {
        super(ctx, rack, history);
        this.placement = placement;
        this.view = new HeldChainView(placement.racks());
        view.load(ctx.durable());
    }

    @Override
    protected int serverFor(OpKind kind, byte[] key) {
        int rack = kind == OpKind.GET ? placement.tailOf(key, view.view()) : placement.headOf(key, view.view());
        return placement.homeIn(rack, key);
    }

    /** The view this client holds (a spec replay checks every node adopted the service's). */
    public ChainView view() {
        return view.view();
    }

    @Override
    protected boolean onControl(InnetPacket packet) {
        PegasusPacket p = PegasusPacket.decodeOrDrop(packet.frame().encode(), f -> true, () -> {});
        if (p == null || p.message().op() != PegasusOp.CHAIN_CONFIG) {
            return false;
        }
        ctx.network().send(p.frame().reply(view.onAnnouncement(p.message(), PegasusExt.NONE).encode()));
        return true;
    }
}
