package dev.innet.live.workload;

import dev.innet.protocol.KvClientLibrary;
import dev.innet.protocol.KvCommandLine;
import dev.innet.protocol.KvResult;
import dev.innet.protocol.RackNodes;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.RandomSource;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.wire.InnetMessage;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A live client host: the protocol's client library, idle until {@link #begin} hands it a run, then a
 * closed loop of unique-value reads, writes and deletes on a small key set, one operation at a time,
 * recorded by the library in the host's history. Event handling only: it is driven by the host's event
 * loop like any node, and {@link #begin} is called on that loop ({@code LiveHost.call}).
 */
public final class WorkloadHost implements Node {
    /**
     * One run's parameters. Fractions: reads {@code readPercent}, deletes {@code deletePercent}, the rest
     * writes. A run ends after {@code operations} operations, or, if {@code durationNanos} is positive, when
     * that much time has passed on the host's clock since it began (whichever comes first); {@code gapNanos}
     * is the pause between one operation's end and the next one's start (0: back to back), which is how a
     * campaign's rate is kept.
     */
    public record Run(int operations, int keys, int readPercent, int deletePercent, boolean everyKeyInOrder,
            long durationNanos, long gapNanos) {
        /** Reads of keys 0..K-1, one each, in order: the final reads after a workload. */
        public static Run finalReads(int keys) {
            return new Run(keys, keys, 100, 0, true, 0, 0);
        }

        public Run {
            if (operations < 1 || keys < 1 || readPercent < 0 || deletePercent < 0 || readPercent + deletePercent > 100
                    || durationNanos < 0 || gapNanos < 0) {
                throw new IllegalArgumentException("bad workload: " + operations + " operations, " + keys + " keys, "
                        + readPercent + "% reads, " + deletePercent + "% deletes, " + durationNanos + " ns, gap "
                        + gapNanos + " ns");
            }
        }
    }

    /** How a run's operations ended, and how many replies the switch itself sent (cache hits). */
    public record Summary(Map<KvResult.Outcome, Integer> outcomes, int fromSwitch) {
        @Override
        public String toString() {
            return "outcomes=" + outcomes.toString().replace(" ", "") + " from_switch=" + fromSwitch;
        }
    }

    /**
     * Told before each operation is invoked (write-ahead), so that a client process killed mid-run
     * leaves a record of the operation it had in flight (the host process's journal, an edge concern).
     */
    public interface Journal {
        Journal NONE = (kind, key, value) -> { };

        void invoking(String kind, byte[] key, byte[] value);
    }

    private final RackNodes protocolNodes;
    private final HistoryRecorder history;
    private final Journal journal;
    private final int valueBytes;
    private NodeContext ctx;
    private KvClientLibrary client;
    private long nextTimer = -1;
    private long written;
    private int runs;
    private boolean singleInFlight;

    private Run run;
    private RandomSource random;
    private int issued;
    private long endsAt;
    private Map<KvResult.Outcome, Integer> outcomes;
    private int fromSwitch;
    private Consumer<Summary> done;

    public WorkloadHost(RackNodes protocolNodes, HistoryRecorder history) {
        this(protocolNodes, history, Journal.NONE);
    }

    public WorkloadHost(RackNodes protocolNodes, HistoryRecorder history, Journal journal) {
        this(protocolNodes, history, journal, 0);
    }

    /**
     * {@code valueBytes}: the length every written value is padded to (the protocol's
     * {@code workloadValueBytes}: LaKe caches 32-byte values only); 0 writes the unique values as they are.
     */
    public WorkloadHost(RackNodes protocolNodes, HistoryRecorder history, Journal journal, int valueBytes) {
        if (valueBytes < 0) {
            throw new IllegalArgumentException("value length must not be negative, got " + valueBytes);
        }
        this.protocolNodes = protocolNodes;
        this.history = history;
        this.journal = journal;
        this.valueBytes = valueBytes;
    }

    /** The key-value family's key {@code i}, as the simulated workloads spell it. */
    public static byte[] keyOf(int i) {
        return InnetMessage.key("user" + i);
    }

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        this.client = protocolNodes.client(context, history);
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

    /** Starts {@code r}; {@code whenDone} gets the count of each outcome once every operation has ended. */
    public void begin(Run r, Consumer<Summary> whenDone) {
        if (run != null || singleInFlight) {
            throw new IllegalStateException("a run or a kv operation is in progress on h" + ctx.hostNumber());
        }
        run = r;
        // one stream per run: a random source forks each name once
        random = ctx.random().fork("workload-run-" + (++runs));
        issued = 0;
        endsAt = r.durationNanos() > 0 ? ctx.clock().nowNanos() + r.durationNanos() : Long.MAX_VALUE;
        outcomes = new EnumMap<>(KvResult.Outcome.class);
        fromSwitch = 0;
        done = whenDone;
        nextTimer = ctx.timers().schedule(0);
    }

    /**
     * One operation handed in from outside the host (a YCSB thread, through the command socket's
     * {@code kv} request): the library runs it like a workload's, journal and history included. Refused
     * (the reason is returned; null when accepted) while a run or another such operation is in progress:
     * a client has at most one operation outstanding, and a run's summary counts only its own.
     */
    public String execute(KvCommandLine.Op op, byte[] key, byte[] value, Consumer<KvResult> whenDone) {
        if (run != null) {
            return "a run is in progress on h" + ctx.hostNumber();
        }
        if (singleInFlight) {
            return "h" + ctx.hostNumber() + " has an operation in flight (one YCSB thread per client host)";
        }
        singleInFlight = true;
        Consumer<KvResult> done = r -> {
            singleInFlight = false;
            whenDone.accept(r);
        };
        switch (op) {
            case GET -> {
                journal.invoking("get", key, null);
                client.get(key, done);
            }
            case PUT -> {
                journal.invoking("put", key, value);
                client.put(key, value, done);
            }
            case DELETE -> {
                journal.invoking("delete", key, null);
                client.delete(key, done);
            }
        }
        return null;
    }

    private void issue() {
        if (issued == run.operations() || ctx.clock().nowNanos() >= endsAt) {
            Consumer<Summary> d = done;
            Summary summary = new Summary(outcomes, fromSwitch);
            run = null;
            done = null;
            d.accept(summary);
            return;
        }
        issued++;
        byte[] key = keyOf(run.everyKeyInOrder() ? issued - 1 : (int) random.nextLong(run.keys()));
        long dice = random.nextLong(100);
        if (dice < run.readPercent()) {
            journal.invoking("get", key, null);
            client.get(key, this::completed);
        } else if (dice < run.readPercent() + run.deletePercent()) {
            journal.invoking("delete", key, null);
            client.delete(key, this::completed);
        } else {
            byte[] value = uniqueValue();
            journal.invoking("put", key, value);
            client.put(key, value, this::completed);
        }
    }

    /** Unique across hosts, incarnations and runs, so the checker can tell every write apart. */
    private byte[] uniqueValue() {
        return padded("h" + ctx.hostNumber() + "i" + ctx.incarnation() + "n" + (++written), valueBytes);
    }

    /**
     * {@code unique} followed by '.' up to {@code length} bytes (no padding when 0 or when it is longer
     * already: uniqueness matters more than the length, and the protocol then only relays the value).
     */
    static byte[] padded(String unique, int length) {
        StringBuilder sb = new StringBuilder(unique);
        while (sb.length() < length) {
            sb.append('.');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private void completed(KvResult r) {
        outcomes.merge(r.outcome(), 1, Integer::sum);
        if (r.fromSwitch()) {
            fromSwitch++;
        }
        nextTimer = ctx.timers().schedule(run.gapNanos());
    }
}
