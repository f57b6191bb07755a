package dev.innet.pegasus.chain;

import dev.innet.kv.KvStatus;
import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.sim.DurableStore;
import dev.innet.wire.InnetMessage;

/**
 * The chains' view as one node holds it (a server, a client, a rack controller, the configuration
 * service itself): the initial view until a newer epoch is announced (or, at the service, decided), then
 * that one, kept in the node's durable store so a restart does not bring back a removed rack.
 */
public final class HeldChainView {
    private static final String DURABLE_KEY = "chain-view";

    private DurableStore durable;
    private ChainView view;

    public HeldChainView(int racks) {
        this.view = ChainView.initial(racks);
    }

    /** At (re)start: the view this node adopted last, if any. */
    public void load(DurableStore store) {
        this.durable = store;
        store.get(DURABLE_KEY).ifPresent(b -> view = ChainView.decode(b));
    }

    public ChainView view() {
        return view;
    }

    /** Adopts {@code newer} if its epoch is newer than the view held, synced before it returns. */
    public void adopt(ChainView newer) {
        if (newer.epoch() > view.epoch()) {
            view = newer;
            durable.put(DURABLE_KEY, newer.encode());
            durable.sync();
        }
    }

    /**
     * A {@link PegasusOp#CHAIN_CONFIG} announcement: adopted if its epoch is newer (synced before the
     * answer), and answered with the epoch now held; a malformed view is refused with BAD_REQUEST.
     */
    public InnetMessage onAnnouncement(InnetMessage m, PegasusExt replyExt) {
        int status = KvStatus.OK;
        try {
            adopt(ChainView.decode(m.value()));
        } catch (IllegalArgumentException e) {
            status = KvStatus.BAD_REQUEST;
        }
        return PegasusPacket.message(PegasusOp.CHAIN_CONFIG_REPLY, 0, status, m.reqId(), m.key(), view.epoch(), replyExt,
                new byte[0]);
    }
}
