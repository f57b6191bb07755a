package dev.innet.rack.ycsb;

import dev.innet.protocol.KvResult;
import dev.innet.rack.Rack;
import dev.innet.rack.workload.DriverClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One simulated rack shared by many callers (YCSB threads, through the rack service): the simulation
 * is single-threaded, so one thread of this class owns the rack, and callers hand it operations. It does
 * not take them one at a time: every operation waiting when the simulation is between events is
 * submitted at the current simulated time, so operations of different callers run concurrently in
 * simulated time (they interleave in the switch and the servers, and overlap in the history), and the
 * simulation runs only while some operation is in flight. With a single caller the run is a pure
 * function of the rack's seed and the operations (the event log replays).
 */
public final class SharedRack implements AutoCloseable {
    /** An operation, or a task that reads the rack on its thread ({@link #inspect}). */
    private sealed interface Job permits Operation, Inspection {}

    private record Operation(int clientHost, DriverClient.Kind kind, byte[] key, byte[] value,
            CompletableFuture<KvResult> result) implements Job {}

    private record Inspection(Callable<?> task, CompletableFuture<Object> result) implements Job {}

    /** How long, in simulated time, one round of the loop may run before it looks for new operations. */
    private static final long ROUND_NANOS = 1_000_000_000L;

    private final Rack rack;
    private final BlockingQueue<Job> waiting = new LinkedBlockingQueue<>();
    private final Thread owner;
    private volatile boolean closed;
    /** Operations submitted to the simulation and not ended yet (only the owner thread touches it). */
    private final java.util.Set<Operation> running = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    public SharedRack(Rack rack) {
        this.rack = rack;
        this.owner = Thread.ofPlatform().name("innet-shared-rack").daemon().start(this::loop);
    }

    /** Runs one operation on {@code clientHost}; completes when the client library says how it ended. */
    public CompletableFuture<KvResult> execute(int clientHost, DriverClient.Kind kind, byte[] key, byte[] value) {
        CompletableFuture<KvResult> result = new CompletableFuture<>();
        if (!rack.clients().contains(clientHost)) {
            result.completeExceptionally(new IllegalArgumentException("h" + clientHost + " is not a client of this rack"));
            return result;
        }
        enqueue(new Operation(clientHost, kind, key, value, result), result);
        return result;
    }

    /** Runs {@code task} on the rack's thread between events (reports, histories, checks). */
    @SuppressWarnings("unchecked")
    public <T> T inspect(Callable<T> task) throws Exception {
        CompletableFuture<Object> result = new CompletableFuture<>();
        enqueue(new Inspection(task, result), result);
        try {
            return (T) result.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception c ? c : e;
        }
    }

    public List<Integer> clients() {
        return rack.clients();
    }

    private void enqueue(Job job, CompletableFuture<?> result) {
        waiting.add(job);
        // closed meanwhile: the owner may have drained the queue for the last time already
        if (closed && waiting.remove(job)) {
            result.completeExceptionally(new IllegalStateException("the shared rack is closed"));
        }
    }

    private void loop() {
        try {
            while (!closed) {
                // idle (nothing in flight): wait for work without letting simulated time pass
                List<Job> jobs = new ArrayList<>();
                if (running.isEmpty()) {
                    jobs.add(waiting.take());
                }
                waiting.drainTo(jobs);
                jobs.forEach(this::start);
                if (!running.isEmpty()) {
                    long now = rack.simulation().now();
                    int before = running.size();
                    rack.simulation().runUntil(() -> running.size() < before || !waiting.isEmpty(), now + ROUND_NANOS);
                }
            }
        } catch (InterruptedException e) {
            // closed
        } catch (RuntimeException e) {
            // the simulation failed (a node threw): every caller learns it instead of waiting forever
            closed = true;
            failAll(e);
        }
        failAll(new IllegalStateException("the shared rack is closed"));
    }

    private void start(Job job) {
        switch (job) {
            case Operation op -> {
                // a client has at most one operation outstanding (the history's rule): a second would
                // make the client library throw inside the simulation, so it is refused here
                if (running.stream().anyMatch(o -> o.clientHost() == op.clientHost())) {
                    op.result().completeExceptionally(new IllegalStateException("h" + op.clientHost()
                            + " has an operation in flight (one YCSB thread per client host)"));
                    return;
                }
                running.add(op);
                rack.submit(op.clientHost(), op.kind(), op.key(), op.value(), r -> {
                    running.remove(op);
                    op.result().complete(r);
                });
            }
            case Inspection in -> {
                try {
                    in.result().complete(in.task().call());
                } catch (Exception e) {
                    in.result().completeExceptionally(e);
                }
            }
        }
    }

    private void failAll(RuntimeException cause) {
        List<Job> left = new ArrayList<>(running);
        running.clear();
        waiting.drainTo(left);
        for (Job j : left) {
            switch (j) {
                case Operation op -> op.result().completeExceptionally(cause);
                case Inspection in -> in.result().completeExceptionally(cause);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        owner.interrupt();
        try {
            owner.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
