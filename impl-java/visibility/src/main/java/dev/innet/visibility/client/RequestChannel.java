package dev.innet.visibility.client;

import dev.innet.sim.NodeContext;
import dev.innet.visibility.wire.VisFrames;
import dev.innet.visibility.wire.VisOp;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.UdpFrame;

/**
 * What every client of the visibility layer (the key-value store's, the file system's) does the same way:
 * request ids that a restarted client never reuses, the history client id renewed after each unknown
 * outcome, and the one outstanding request of its one operation, re-sent after the timeout (§III-E 1)
 * with the same request id until the operation's attempts are used up.
 */
public final class RequestChannel {
    private static final long REQ_ID_COUNTER_MASK = 0x00ff_ffffL;

    /** What a timer meant to the channel. */
    public enum Timer { NOT_OURS, RESENT, GAVE_UP }

    private final NodeContext ctx;
    private final long timeoutNanos;
    private final int maxAttempts;
    private long nextRequest = 1;
    private int unknownOutcomes;
    private UdpFrame request;
    private int attempts;
    private long timer = -1;
    private boolean outstanding;

    public RequestChannel(NodeContext ctx, long timeoutNanos, int maxAttempts) {
        if (ctx.incarnation() > 255) {
            throw new IllegalStateException("request ids reserve 8 bits for the incarnation");
        }
        this.ctx = ctx;
        this.timeoutNanos = timeoutNanos;
        this.maxAttempts = maxAttempts;
    }

    /**
     * A new operation on {@code key}: its request id (incarnation in the top 8 of 32 bits, a counter below);
     * attempts start at 0.
     *
     * @throws IllegalStateException an operation is outstanding (one at a time per client)
     * @throws IllegalArgumentException the key is not a 16-byte wire key
     */
    public long begin(byte[] key) {
        if (outstanding) {
            throw new IllegalStateException("one operation at a time per client");
        }
        if (key.length != InnetMessage.KEY_BYTES) {
            throw new IllegalArgumentException("keys (and paths) are 16 bytes on the wire; pad with InnetMessage.key(...)");
        }
        outstanding = true;
        attempts = 0;
        return ((long) ctx.incarnation() << 24) | (nextRequest++ & REQ_ID_COUNTER_MASK);
    }

    /** The history client id (as KvClient's): host, incarnation, and how many outcomes were unknown so far. */
    public int historyClientId() {
        return ctx.hostNumber() * 1_000_000 + ctx.incarnation() * 10_000 + unknownOutcomes;
    }

    /** Sends {@code m} from the client port to {@code host}'s visibility port: the operation's request from now on. */
    public void send(int host, InnetMessage m) {
        request = VisFrames.frame(ctx.hostNumber(), VisibilityClient.SOURCE_PORT, host, VisOp.PORT, m);
        transmit();
    }

    private void transmit() {
        attempts++;
        ctx.network().send(request);
        if (timer >= 0) {
            ctx.timers().cancel(timer);
        }
        timer = ctx.timers().schedule(timeoutNanos);
    }

    /** The request sent last. */
    public UdpFrame request() {
        return request;
    }

    /** Requests sent for the current operation (re-sends and every phase's request). */
    public int attempts() {
        return attempts;
    }

    /**
     * A fired timer: the request re-sent (after {@code beforeResend}, e.g. a trace event), the attempts used
     * up (nothing sent), or not this channel's.
     */
    public Timer onTimer(long timerId, Runnable beforeResend) {
        if (timer < 0 || timerId != timer) {
            return Timer.NOT_OURS;
        }
        timer = -1;
        if (attempts >= maxAttempts) {
            return Timer.GAVE_UP;
        }
        beforeResend.run();
        transmit();
        return Timer.RESENT;
    }

    /** The operation ended: no more re-sends; {@code unknown} renews the history client id. */
    public void end(boolean unknown) {
        outstanding = false;
        if (timer >= 0) {
            ctx.timers().cancel(timer);
            timer = -1;
        }
        if (unknown) {
            unknownOutcomes++;
        }
    }
}
