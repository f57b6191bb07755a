package dev.innet.kv.spec;

import dev.innet.kv.client.KvClient;
import dev.innet.protocol.spec.ReplayContext;
import dev.innet.protocol.spec.SpecReplay.ReplayException;

/** What the key-value family's spec replays do with a client library they crank by hand. */
public final class ReplayClients {
    private ReplayClients() {}

    /**
     * The spec's ClientGiveUp: the client's pending timers fire; configured with one attempt, it must
     * give up its operation, sending nothing. A replay failure otherwise, or if it had no operation.
     */
    public static void giveUp(String c, ReplayContext ctx, KvClient client) {
        if (!client.busy()) {
            throw new ReplayException("ClientGiveUp: client " + c + " has no operation outstanding");
        }
        for (long timer : ctx.pendingTimers()) {
            if (ctx.fire(timer)) {
                client.onTimer(timer);
            }
        }
        if (client.busy() || !ctx.takeSent().isEmpty()) {
            throw new ReplayException("ClientGiveUp: client " + c + " did not give up after its timeout");
        }
    }
}
