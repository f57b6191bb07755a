package dev.innet.p4sim.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * Which memories a packet's pass touched. A program places a register array in a named memory with
 * {@code @innet_memory("dram")} on its declaration (p4c ignores the annotation); every data-plane read
 * or write of such an array marks its memory here. p4sim itself gives memories no timing: a
 * simulator that models a device with memories of different speeds (LaKe's on-chip cache in front of
 * NetFPGA's DRAM) clears the marks before a packet and prices the memories it finds marked after it.
 * Registers without the annotation are compiled without any mark, so programs that do not use it pay
 * nothing. Not thread-safe, like the switch it belongs to.
 */
public final class MemoryAccesses {
    /** At most this many memories: the marks are the bits of one long. */
    public static final int MAX_MEMORIES = 64;
    private final List<String> memories = new ArrayList<>();
    private long touched;

    /** The id of {@code memory}, registered on first use (compile time). */
    public int idOf(String memory) {
        int i = memories.indexOf(memory);
        if (i >= 0) {
            return i;
        }
        if (memories.size() == MAX_MEMORIES) {
            throw new IllegalStateException("more than " + MAX_MEMORIES + " memories named by @innet_memory");
        }
        memories.add(memory);
        return memories.size() - 1;
    }

    public void touch(int id) {
        touched |= 1L << id;
    }

    /** Forgets the marks (before a packet whose accesses are to be seen alone). */
    public void clear() {
        touched = 0;
    }

    /** The memories the program declares, in order of first declaration. */
    public List<String> memories() {
        return List.copyOf(memories);
    }

    /** The memories touched since the last {@link #clear}, in declaration order. */
    public List<String> touched() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < memories.size(); i++) {
            if ((touched & (1L << i)) != 0) {
                out.add(memories.get(i));
            }
        }
        return out;
    }

    /** Whether memory {@code id} was touched since the last {@link #clear} (no allocation). */
    public boolean touched(int id) {
        return (touched & (1L << id)) != 0;
    }
}
