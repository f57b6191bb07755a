package dev.innet.rack.workload;

import dev.innet.protocol.KvClientLibrary;
import dev.innet.protocol.KvResult;
import dev.innet.protocol.RackNodes;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.RandomSource;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.wire.InnetMessage;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * A closed-loop client host, for any protocol (it uses the protocol's client library): one operation at a time from its {@link Workload} until {@code stopNanos},
 * recorded in the run's history. Counts what it saw for the run's report.
 */
public final class WorkloadClient implements Node {
    private final RackNodes protocolNodes;
    private final Workload workload;
    private final long stopNanos;
    private final HistoryRecorder history;
    private final WorkloadStats stats;
    private final Supplier<KeyChooser> keyChoosers;
    /**
     * When a load phase starts: after the controller's first steps have normally programmed the switch, so
     * the load wastes no timeouts; a load write lost anyway is written again ({@link #loadWriteEnded}).
     */
    static final long LOAD_START_NANOS = 1_000_000;

    private final List<byte[]> loadKeys;
    private int loaded;

    private NodeContext ctx;
    private KvClientLibrary client;
    private RandomSource random;
    private KeyChooser keys;
    private long nextTimer = -1;
    private long written;
    private byte[] pendingWrite;
    private long pendingWriteStarted;

    /** @param stats shared across this host's incarnations (it lives outside the node, like the history) */
    public WorkloadClient(RackNodes protocolNodes, Workload workload, long stopNanos, HistoryRecorder history,
            WorkloadStats stats) {
        this(protocolNodes, workload, stopNanos, history, stats, null, List.of());
    }

    /**
     * @param keyChoosers a fresh key source per incarnation, or null for the workload's own zipfian; unused
     *        when the workload has a chooser, which picks the keys
     * @param loadKeys keys this client writes once, one at a time, before its workload (a benchmark's load
     *        phase, so the records the workload reads exist); not counted in the stats
     */
    public WorkloadClient(RackNodes protocolNodes, Workload workload, long stopNanos, HistoryRecorder history,
            WorkloadStats stats, Supplier<KeyChooser> keyChoosers, List<byte[]> loadKeys) {
        this.keyChoosers = keyChoosers;
        this.loadKeys = List.copyOf(loadKeys);
        this.protocolNodes = protocolNodes;
        this.workload = workload;
        this.stopNanos = stopNanos;
        this.history = history;
        this.stats = stats;
    }

    public static byte[] keyOf(int i) {
        return InnetMessage.key("user" + i);
    }

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        this.client = protocolNodes.client(context, history);
        this.random = context.random().fork("workload");
        // a workload with a chooser takes its keys from it; no key source is built (a zipfian over 10^8
        // keys would sum its zeta for seconds, per client, for nothing)
        if (workload.chooser() == null) {
            this.keys = keyChoosers != null ? keyChoosers.get()
                    : new ZipfianGenerator(workload.keys(), workload.zipfTheta(), true);
        }
        // A load phase waits for the controller to bring the switch up and preload the cache first.
        nextTimer = ctx.timers().schedule(loaded < loadKeys.size() ? LOAD_START_NANOS : 0);
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
        if (pendingWrite != null) {
            finishReadModifyWrite();
            return;
        }
        if (ctx.clock().nowNanos() >= stopNanos) {
            return;
        }
        if (loaded < loadKeys.size()) {
            client.put(loadKeys.get(loaded), uniqueValue(), this::loadWriteEnded);
            return;
        }
        if (workload.chooser() != null) {
            issue(workload.chooser().next(random));
            return;
        }
        byte[] key = keyOf((int) keys.next(random));
        double dice = random.nextDouble();
        long started = ctx.clock().nowNanos();
        if (dice < workload.readFraction()) {
            client.get(key, r -> done(r, started, true));
        } else if (dice < workload.readFraction() + workload.deleteFraction()) {
            client.delete(key, r -> done(r, started, false));
        } else {
            client.put(key, uniqueValue(), r -> done(r, started, false));
        }
    }

    /**
     * A load write that timed out is written again. Clients of write-through protocols (NetCache, no-cache)
     * do not retry writes themselves, and a load write can be lost for good: before the controller has
     * programmed the switch there is no route, and later through a lossy link. Moving on would leave the
     * key absent from the servers, so a NetCache cache could never make its record valid (a read of an
     * absent key answers NOT_FOUND, which netcache.p4 does not cache) and every read of it would go to a
     * server (docs/benchmarks.md, "NetCache keys written before the switch is up stay invalid"). Writing
     * it again is a new write like any other (the lost one ends unknown in the history), so it is safe.
     */
    private void loadWriteEnded(KvResult r) {
        if (r.outcome() != KvResult.Outcome.TIMED_OUT) {
            loaded++;
        }
        nextTimer = ctx.timers().schedule(0);
    }

    private void issue(OperationChooser.Choice c) {
        byte[] key = keyOf(Math.toIntExact(c.key()));
        long started = ctx.clock().nowNanos();
        switch (c.kind()) {
            case READ -> client.get(key, r -> done(r, started, true));
            case UPDATE, INSERT -> client.put(key, uniqueValue(), r -> done(r, started, false));
            case DELETE -> client.delete(key, r -> done(r, started, false));
            case READ_MODIFY_WRITE -> client.get(key, read -> {
                if (read.outcome() == KvResult.Outcome.OK || read.outcome() == KvResult.Outcome.NOT_FOUND) {
                    // the write is a new operation: issued from a timer, once the library has closed the read
                    pendingWrite = key;
                    pendingWriteStarted = started;
                    nextTimer = ctx.timers().schedule(0);
                } else {
                    done(read, started, true);
                }
            });
        }
    }

    /** The write half of a read-modify-write whose read has ended. */
    private void finishReadModifyWrite() {
        byte[] key = pendingWrite;
        long started = pendingWriteStarted;
        pendingWrite = null;
        client.put(key, uniqueValue(), r -> done(r, started, false));
    }

    private byte[] uniqueValue() {
        String id = "h" + ctx.hostNumber() + "i" + ctx.incarnation() + "n" + (++written) + "-";
        // a fixed-length workload draws nothing here, so its runs are the same as before lengths could vary
        int length = workload.maxValueBytes() == workload.valueBytes() ? workload.valueBytes()
                : workload.valueBytes() + random.nextInt(workload.maxValueBytes() - workload.valueBytes() + 1);
        byte[] v = Arrays.copyOf(id.getBytes(StandardCharsets.UTF_8), Math.max(id.length(), length));
        Arrays.fill(v, id.length(), v.length, (byte) 'x');
        return v;
    }

    private void done(KvResult r, long started, boolean read) {
        stats.record(r, ctx.clock().nowNanos() - started, read, ctx.clock().nowNanos());
        nextTimer = ctx.timers().schedule(workload.thinkNanos());
    }
}
