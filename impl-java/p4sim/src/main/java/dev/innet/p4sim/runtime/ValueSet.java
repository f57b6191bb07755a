package dev.innet.p4sim.runtime;

import java.util.Arrays;

/**
 * A parser value set ({@code value_set<T>(size)}): up to {@code size} values of {@code width} bits
 * (at most 64; a struct element is its fields concatenated, first field most significant), written
 * by the control plane and matched exactly by select cases. Membership is a scan of a small array,
 * so the packet path allocates nothing.
 */
public final class ValueSet {
    public final String name;
    public final int width;
    public final int size;
    private final long[] values;
    private int count;

    public ValueSet(String name, int width, int size) {
        this.name = name;
        this.width = width;
        this.size = size;
        this.values = new long[size];
    }

    public boolean contains(long v) {
        for (int i = 0; i < count; i++) {
            if (values[i] == v) {
                return true;
            }
        }
        return false;
    }

    /** Adds {@code v}; false when the set is full. Adding a member again changes nothing (as bmv2). */
    public boolean add(long v) {
        if (contains(v)) {
            return true;
        }
        if (count == size) {
            return false;
        }
        values[count++] = v;
        return true;
    }

    /** Removes {@code v}; removing a value that is not there changes nothing (as bmv2). */
    public void remove(long v) {
        for (int i = 0; i < count; i++) {
            if (values[i] == v) {
                values[i] = values[--count];
                return;
            }
        }
    }

    public void clear() {
        count = 0;
    }

    /** The members in the order they were added (a removal moves the last one into the gap). */
    public long[] members() {
        return Arrays.copyOf(values, count);
    }
}
