package dev.innet.sim.testnodes;

import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.RandomSource;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpKind;
import dev.innet.sim.history.OpResult;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;

/**
 * Test-only client: issues {@code opsToRun} operations one at a time on a few keys, retrying each
 * (same request id) on a timeout, and records each in the shared history. After too many retries the
 * outcome is unknown and the client moves on; a restarted client records under a new client id, as the
 * format requires.
 * Request ids carry the incarnation in their top byte so a restarted client never reuses one.
 */
public final class KvClientNode implements Node {
    private static final int EPHEMERAL_PORT = 40000;
    private static final long TIMEOUT_NANOS = 2_000_000;
    private static final int MAX_ATTEMPTS = 4;
    private static final String[] KEYS = {"alpha", "beta"};

    private final int serverHost;
    private final int opsToRun;
    private final HistoryRecorder history;

    private NodeContext ctx;
    private RandomSource choices;
    private int historyClient;
    private int opsDone;
    private long nextReqId;
    private InnetMessage inFlight;
    private long inFlightHistoryId;
    private long timeoutTimer;
    private int attempts;

    public KvClientNode(int serverHost, int opsToRun, HistoryRecorder history) {
        this.serverHost = serverHost;
        this.opsToRun = opsToRun;
        this.history = history;
    }

    @Override
    public void onStart(NodeContext ctx) {
        this.ctx = ctx;
        this.choices = ctx.random().fork("ops");
        // A restarted client is a new process to the history: the old one's open operation stays unknown.
        this.historyClient = ctx.hostNumber() * 1000 + ctx.incarnation();
        this.nextReqId = ((long) ctx.incarnation() << 24) + 1;
        ctx.timers().schedule(choices.nextLong(100_000));
    }

    public boolean finished() {
        return opsDone >= opsToRun;
    }

    @Override
    public void onTimer(long timerId) {
        if (inFlight == null) {
            startNextOperation();
            return;
        }
        if (timerId != timeoutTimer) {
            return;
        }
        if (attempts < MAX_ATTEMPTS) {
            transmit();
            return;
        }
        history.timedOut(inFlightHistoryId); // gave up: outcome unknown, the client moves on
        finishOperation();
    }

    @Override
    public void onPacket(byte[] bytes) {
        InnetMessage reply;
        try {
            reply = InnetMessage.decode(UdpFrame.decode(bytes).payload());
        } catch (WireException e) {
            return;
        }
        if (inFlight == null || !reply.isReply() || reply.reqId() != inFlight.reqId()) {
            return; // a late duplicate of an earlier reply
        }
        ctx.timers().cancel(timeoutTimer);
        OpResult result;
        byte[] read = null;
        if (reply.status() == KvServerNode.STATUS_NOT_FOUND && inFlight.op() == KvServerNode.GET) {
            result = OpResult.NOT_FOUND;
        } else if (reply.status() == KvServerNode.STATUS_OK) {
            result = OpResult.OK;
            read = inFlight.op() == KvServerNode.GET ? reply.value() : null;
        } else {
            result = OpResult.FAIL;
        }
        history.complete(inFlightHistoryId, result, read);
        finishOperation();
    }

    private void startNextOperation() {
        if (finished()) {
            return;
        }
        byte[] key = InnetMessage.key(KEYS[choices.nextInt(KEYS.length)]);
        int pick = choices.nextInt(10);
        int op = pick < 5 ? KvServerNode.GET : pick < 9 ? KvServerNode.PUT : KvServerNode.DEL;
        byte[] value = op == KvServerNode.PUT ? ("v" + ctx.hostNumber() + "-" + nextReqId).getBytes() : new byte[0];
        inFlight = InnetMessage.of(op, nextReqId++, key, 0, value);
        OpKind kind = op == KvServerNode.GET ? OpKind.GET : op == KvServerNode.PUT ? OpKind.PUT : OpKind.DELETE;
        inFlightHistoryId = history.invoke(historyClient, kind, key, op == KvServerNode.PUT ? value : null);
        attempts = 0;
        transmit();
    }

    private void transmit() {
        attempts++;
        ctx.network().send(new UdpFrame(RackAddressing.hostMac(serverHost), RackAddressing.hostMac(ctx.hostNumber()),
                RackAddressing.hostIp(ctx.hostNumber()), RackAddressing.hostIp(serverHost), EPHEMERAL_PORT,
                KvServerNode.PORT, inFlight.encode()));
        timeoutTimer = ctx.timers().schedule(TIMEOUT_NANOS);
    }

    private void finishOperation() {
        inFlight = null;
        opsDone++;
        if (!finished()) {
            ctx.timers().schedule(1 + choices.nextLong(200_000));
        }
    }
}
