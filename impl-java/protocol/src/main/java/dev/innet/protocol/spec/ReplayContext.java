package dev.innet.protocol.spec;

import dev.innet.sim.Clock;
import dev.innet.sim.DurableStore;
import dev.innet.sim.Network;
import dev.innet.sim.NodeContext;
import dev.innet.sim.RandomSource;
import dev.innet.sim.SeededRandom;
import dev.innet.sim.Timers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A node context a replay cranks by hand: frames the node sends are collected for the replay to route,
 * timers fire only when the replay fires them, time stands still unless the replay advances it, and the
 * durable store is in memory. A replay decides every interleaving itself, so nothing here runs on its own.
 */
public final class ReplayContext implements NodeContext {
    private final int host;
    private final RandomSource random;
    private final List<byte[]> sent = new ArrayList<>();
    private final TreeMap<Long, Long> pendingTimers = new TreeMap<>(); // id -> due time
    private final TreeMap<String, byte[]> durable = new TreeMap<>();
    private long now;
    private long nextTimer = 1;
    private int incarnation;

    public ReplayContext(int host, long seed) {
        this.host = host;
        this.random = new SeededRandom(seed).fork("replay-h" + host);
    }

    /** Frames sent since the last call, in order. */
    public List<byte[]> takeSent() {
        List<byte[]> out = List.copyOf(sent);
        sent.clear();
        return out;
    }

    /** Timers scheduled and not cancelled or fired, by id (ascending: the oldest first). */
    public List<Long> pendingTimers() {
        return List.copyOf(pendingTimers.keySet());
    }

    /**
     * Pending timers already due at the current time (ascending id), for a replay that advances time and
     * fires only what a real clock would have fired by then (a long periodic timer stays pending).
     */
    public List<Long> dueTimers() {
        List<Long> due = new ArrayList<>();
        pendingTimers.forEach((id, at) -> {
            if (at <= now) {
                due.add(id);
            }
        });
        return due;
    }

    /** Marks timer {@code id} fired (the replay then calls the node's onTimer); false if it is not pending. */
    public boolean fire(long id) {
        return pendingTimers.remove(id) != null;
    }

    /** A crash and restart: pending timers and unsent frames are gone, the incarnation counts up. */
    public void restart() {
        pendingTimers.clear();
        sent.clear();
        incarnation++;
    }

    public void advance(long nanos) {
        now += nanos;
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
        return random;
    }

    @Override
    public Network network() {
        return frame -> {
            Network.requireSendable(frame);
            sent.add(frame.clone());
        };
    }

    @Override
    public Timers timers() {
        return new Timers() {
            @Override
            public long schedule(long delayNanos) {
                long id = nextTimer++;
                pendingTimers.put(id, now + delayNanos);
                return id;
            }

            @Override
            public boolean cancel(long timerId) {
                return pendingTimers.remove(timerId) != null;
            }
        };
    }

    @Override
    public DurableStore durable() {
        return new DurableStore() {
            @Override
            public Optional<byte[]> get(String key) {
                return Optional.ofNullable(durable.get(key)).map(byte[]::clone);
            }

            @Override
            public void put(String key, byte[] value) {
                DurableStore.requireKey(key);
                DurableStore.requireValue(value);
                durable.put(key, value.clone());
            }

            @Override
            public void delete(String key) {
                durable.remove(key);
            }

            @Override
            public void sync() {
                // in memory: nothing to flush
            }

            @Override
            public SortedSet<String> keys() {
                return new TreeSet<>(durable.keySet());
            }

            @Override
            public Path directory() {
                return Path.of("replay-h" + host); // only memory stores are used in replays
            }
        };
    }

    @Override
    public void log(String message) {
        // replays report through their own step log
    }

    @Override
    public void trace(dev.innet.sim.TraceEvent event) {
        // a replay compares states after every step; trace events are for runs validated against the spec
    }
}
