package dev.innet.visibility.metadata;

import dev.innet.visibility.wire.IndexRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The metadata node's buffer of asynchronous updates (§III-D "deferred metadata processing"): they are
 * off the critical path, so they wait until the buffer is full or the node is idle, and are then applied
 * as one batch with operation combining: sorted by key (neighbouring updates touch neighbouring tree
 * nodes), and several updates of one key combined into the newest.
 */
public final class DeferredBatch {
    private final List<IndexRecord> buffer = new ArrayList<>();
    private final int capacity;

    public DeferredBatch(int capacity) {
        this.capacity = capacity;
    }

    public void add(IndexRecord r) {
        buffer.add(r);
    }

    public boolean isEmpty() {
        return buffer.isEmpty();
    }

    /** The updates waiting, in arrival order (read-only: observers such as the conformance replay). */
    public List<IndexRecord> pending() {
        return List.copyOf(buffer);
    }

    public boolean full() {
        return buffer.size() >= capacity;
    }

    /**
     * Empties the buffer: every update it held, sorted by key then timestamp (each must still be cleared
     * in the switch by its own timestamp), and the combined updates to apply (the newest per key).
     */
    public Drained drain() {
        List<IndexRecord> sorted = new ArrayList<>(buffer);
        buffer.clear();
        sorted.sort(Comparator.<IndexRecord, byte[]>comparing(IndexRecord::key, Arrays::compareUnsigned)
                .thenComparingLong(IndexRecord::ts));
        List<IndexRecord> combined = new ArrayList<>();
        for (IndexRecord r : sorted) {
            int last = combined.size() - 1;
            if (last >= 0 && Arrays.equals(combined.get(last).key(), r.key())) {
                combined.set(last, r); // sorted by ts within a key: the later one is newer
            } else {
                combined.add(r);
            }
        }
        return new Drained(sorted, combined);
    }

    public record Drained(List<IndexRecord> all, List<IndexRecord> combined) {}
}
