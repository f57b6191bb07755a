package dev.innet.pegasus.client;

import dev.innet.kv.client.ClientConfig;
import dev.innet.kv.client.KvClient;
import dev.innet.pegasus.PegasusRack;
import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.wire.InnetMessage;

/**
 * The Pegasus client library: the family's client ({@link KvClient}: one operation outstanding,
 * timeouts, request ids unique across restarts, histories) speaking Pegasus's port and extension. READ,
 * WRITE and DELETE have the family's op numbers. Requests go to the key's home; the switch redirects
 * replicated keys (§6.2). Writes are retried too, with the same request id, so the detector node
 * recognises a retry and does not execute it twice (§6.4: the switch gives every retry a new version,
 * so without the client tables a retried write could overwrite a newer one). Spec actions: IssueWrite,
 * RetryWrite, IssueRead, RetryRead.
 */
public class PegasusClient extends KvClient {
    /** UDP source port of requests; replies come back to it. */
    public static final int SOURCE_PORT = 40010;

    /** @param history where operations are recorded, or null */
    public PegasusClient(NodeContext ctx, PegasusRack rack, HistoryRecorder history) {
        super(ctx, new ClientConfig(rack.servers(), rack.clientTimeoutNanos(), rack.clientAttempts(), true, SOURCE_PORT),
                history);
    }

    @Override
    protected int serverPort() {
        return PegasusOp.PORT;
    }

    /** Version 0: the switch stamps it (a non-zero version is a chain's upstream stamp, §7). */
    @Override
    protected InnetMessage newRequest(int op, long reqId, byte[] key, byte[] value) {
        return PegasusPacket.message(op, 0, 0, reqId, key, 0, PegasusExt.NONE, value);
    }
}
