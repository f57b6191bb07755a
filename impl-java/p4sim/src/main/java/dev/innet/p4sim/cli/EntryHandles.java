package dev.innet.p4sim.cli;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Entry handles of one table, numbered as bmv2 numbers them (bm_sim/match_units.cpp): the low 24 bits
 * are the lowest free slot, the high 8 bits the slot's version, which a delete increments. So handles
 * count 0, 1, 2, ... per table; a deleted entry's slot is reused with the next version (the first
 * reuse of slot 0 is 0x01000000), and a stale handle is refused. Clearing the table starts over.
 */
final class EntryHandles<T> {
    private static final int SLOT_BITS = 24;
    private static final int SLOT_MASK = (1 << SLOT_BITS) - 1;
    private static final int VERSION_MASK = 0xFF;

    private final BitSet used = new BitSet();
    private final Map<Integer, Integer> versions = new HashMap<>();
    private final TreeMap<Integer, T> bySlot = new TreeMap<>();

    /** Takes the lowest free slot for {@code entry}; returns its handle. */
    int allocate(T entry) {
        int slot = used.nextClearBit(0);
        used.set(slot);
        bySlot.put(slot, entry);
        return handleOf(slot);
    }

    /** The entry of a live handle, or null (never allocated, deleted, or an old version). */
    T get(int handle) {
        int slot = handle & SLOT_MASK;
        if (!used.get(slot) || handleOf(slot) != handle) {
            return null;
        }
        return bySlot.get(slot);
    }

    /** Frees a live handle's slot (its next use gets the next version). */
    void release(int handle) {
        int slot = handle & SLOT_MASK;
        used.clear(slot);
        bySlot.remove(slot);
        versions.merge(slot, 1, (a, b) -> (a + b) & VERSION_MASK);
    }

    /** Frees every handle whose entry satisfies {@code test}. */
    void releaseIf(java.util.function.Predicate<T> test) {
        for (Map.Entry<Integer, T> e : new TreeMap<>(bySlot).entrySet()) {
            if (test.test(e.getValue())) {
                release(handleOf(e.getKey()));
            }
        }
    }

    /** As after loading the program: bmv2's reset_state forgets handles and versions. */
    void clear() {
        used.clear();
        versions.clear();
        bySlot.clear();
    }

    /** Live handles in slot order (the order bmv2's table_dump lists them), with their entries. */
    Map<Integer, T> live() {
        Map<Integer, T> out = new java.util.LinkedHashMap<>();
        bySlot.forEach((slot, e) -> out.put(handleOf(slot), e));
        return out;
    }

    private int handleOf(int slot) {
        return (versions.getOrDefault(slot, 0) << SLOT_BITS) | slot;
    }
}
