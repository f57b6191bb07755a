package dev.innet.rack;

import dev.innet.p4sim.runtime.MemoryAccesses;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * How long the simulated switch takes over a packet: the sum of the latencies of the memories its pass
 * touched ({@code @innet_memory} register arrays, {@link MemoryAccesses}). A pure function of what the
 * P4 program did, so the switch's logic stays the program's ({@code Protocol#switchMemoryNanos}).
 */
final class SwitchMemoryTiming {
    private final long[] nanosById;

    /**
     * @throws IllegalArgumentException unless {@code nanosPerMemory} names exactly the memories the
     *     program declares, each with a latency >= 0 (a misspelt name would silently time nothing)
     */
    SwitchMemoryTiming(MemoryAccesses memories, Map<String, Long> nanosPerMemory) {
        List<String> declared = memories.memories();
        if (!new TreeSet<>(declared).equals(new TreeSet<>(nanosPerMemory.keySet()))) {
            throw new IllegalArgumentException("switch memory timing names " + new TreeSet<>(nanosPerMemory.keySet())
                    + " but the P4 program's @innet_memory register arrays are in " + new TreeSet<>(declared));
        }
        nanosById = new long[declared.size()];
        for (int i = 0; i < declared.size(); i++) {
            long nanos = nanosPerMemory.get(declared.get(i));
            if (nanos < 0) {
                throw new IllegalArgumentException("memory " + declared.get(i) + " has a negative latency: " + nanos + " ns");
            }
            nanosById[i] = nanos;
        }
    }

    /** The time of the pass whose accesses {@code memories} holds (cleared before it). */
    long delayNanos(MemoryAccesses memories) {
        long total = 0;
        for (int i = 0; i < nanosById.length; i++) {
            if (memories.touched(i)) {
                total += nanosById[i];
            }
        }
        return total;
    }
}
