package dev.innet.kv;

import dev.innet.sim.Clock;
import dev.innet.sim.DurableStore;
import dev.innet.sim.Network;
import dev.innet.sim.NodeContext;
import dev.innet.sim.RandomSource;
import dev.innet.sim.Timers;
import dev.innet.sim.TraceEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * A hand-driven node context for unit tests of one node's handlers: sent frames are collected, timers
 * only fire when the test says so. Whole-system behaviour is tested in the simulator instead.
 */
public final class FakeContext implements NodeContext {
    final int host;
    final Path dir;
    public final List<byte[]> sent = new ArrayList<>();
    public long now;
    long nextTimer = 1;
    /** Pending timers by id, with their due time; tests fire them by hand. */
    public final java.util.TreeMap<Long, Long> timers = new java.util.TreeMap<>();
    public int incarnation;

    /** The node's durable key-value map: one per context, handed on by {@link #restarted()}. */
    private final TreeMap<String, byte[]> durableMap;

    public FakeContext(int host, Path dir) {
        this(host, dir, new TreeMap<>());
    }

    private FakeContext(int host, Path dir, TreeMap<String, byte[]> durableMap) {
        this.host = host;
        this.dir = dir;
        this.durableMap = durableMap;
    }

    /** A context for the node's next incarnation: same host and durable state, nothing sent, no timers. */
    public FakeContext restarted() {
        FakeContext next = new FakeContext(host, dir, durableMap);
        next.incarnation = incarnation + 1;
        return next;
    }

    @Override
    public int hostNumber() {
        return host;
    }

    @Override
    public int incarnation() {
        return incarnation;
    }

    @Override
    public Clock clock() {
        return () -> now;
    }

    @Override
    public RandomSource random() {
        throw new UnsupportedOperationException("the server draws no random numbers");
    }

    @Override
    public Network network() {
        return frame -> sent.add(frame.clone());
    }

    @Override
    public Timers timers() {
        return new Timers() {
            @Override
            public long schedule(long delayNanos) {
                timers.put(nextTimer, now + delayNanos);
                return nextTimer++;
            }

            @Override
            public boolean cancel(long timerId) {
                return timers.remove(timerId) != null;
            }
        };
    }

    @Override
    public DurableStore durable() {
        TreeMap<String, byte[]> map = durableMap;
        return new DurableStore() {
            @Override
            public Optional<byte[]> get(String key) {
                return Optional.ofNullable(map.get(key));
            }

            @Override
            public void put(String key, byte[] value) {
                map.put(key, value);
            }

            @Override
            public void delete(String key) {
                map.remove(key);
            }

            @Override
            public void sync() {}

            @Override
            public SortedSet<String> keys() {
                return new java.util.TreeSet<>(map.keySet());
            }

            @Override
            public Path directory() {
                return dir;
            }
        };
    }

    @Override
    public void log(String message) {}

    /** Trace events the node emitted, kept for tests that want to look at them. */
    public final List<TraceEvent> traceEvents = new ArrayList<>();

    @Override
    public void trace(TraceEvent event) {
        traceEvents.add(event);
    }
}
