package dev.innet.visibility.fs;

import dev.innet.protocol.ClientStats;
import dev.innet.protocol.KvResult;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.RandomSource;

/**
 * A closed-loop client host of the file-system namespace: one operation at a time from its
 * {@link FsWorkload} until {@code stopNanos}, through an {@link FsClient} (recorded in the run's history),
 * each ended one reported to the run's stats (a create that found the path and a write or stat that
 * found none are completed operations: they observed the namespace).
 */
public final class FsWorkloadClient implements Node {
    /** Makes the client library of a host (tests substitute a buggy one). */
    public interface ClientFactory {
        FsClient create(NodeContext ctx, dev.innet.visibility.RackRoles roles, dev.innet.sim.history.HistoryRecorder history);
    }

    private final java.util.function.Function<NodeContext, FsClient> clients;
    private final FsWorkload workload;
    private final long stopNanos;
    private final ClientStats stats;
    private NodeContext ctx;
    private FsClient client;
    private RandomSource random;
    private long nextTimer = -1;
    private long written;

    /** @param clients the host's client library, bound to its context (and the rack's roles and history) */
    public FsWorkloadClient(java.util.function.Function<NodeContext, FsClient> clients, FsWorkload workload, long stopNanos,
            ClientStats stats) {
        this.clients = clients;
        this.workload = workload;
        this.stopNanos = stopNanos;
        this.stats = stats;
    }

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        this.client = clients.apply(context);
        this.random = context.random().fork("fs-workload");
        nextTimer = ctx.timers().schedule(0);
    }

    @Override
    public void onPacket(byte[] frame) {
        client.onPacket(frame);
    }

    @Override
    public void onTimer(long timerId) {
        if (timerId == nextTimer) {
            issue();
        } else {
            client.onTimer(timerId);
        }
    }

    private void issue() {
        long started = ctx.clock().nowNanos();
        if (started >= stopNanos) {
            return;
        }
        byte[] path = workload.path(workload.nextPath(random));
        switch (workload.nextKind(random)) {
            case CREATE -> client.create(path, r -> done(r, started, false));
            case STAT -> client.stat(path, r -> done(r, started, true));
            case WRITE -> {
                String writer = "h" + ctx.hostNumber() + "i" + ctx.incarnation() + "n" + (++written) + "-";
                client.write(path, FsWorkload.data(writer, workload.nextSize(random)), r -> done(r, started, false));
            }
        }
    }

    private void done(FsResult r, long started, boolean read) {
        KvResult.Outcome outcome = switch (r.outcome()) {
            case OK, EXISTS -> KvResult.Outcome.OK;
            case NOT_FOUND -> KvResult.Outcome.NOT_FOUND;
            case FAILED -> KvResult.Outcome.FAILED;
            case TIMED_OUT -> KvResult.Outcome.TIMED_OUT;
        };
        long now = ctx.clock().nowNanos();
        stats.record(new KvResult(outcome, new byte[0], 0, r.fromSwitch(), -1, r.attempts()), now - started, read, now);
        nextTimer = ctx.timers().schedule(workload.thinkNanos());
    }
}
