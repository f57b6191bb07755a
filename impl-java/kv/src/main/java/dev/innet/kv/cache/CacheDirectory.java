package dev.innet.kv.cache;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * The controller's view of the switch cache: which record slot holds which key, and which slots are
 * free. Rebuilt from scratch whenever the controller adopts a switch (fresh, restarted or relearned).
 */
public final class CacheDirectory {
    private final int capacity;
    private final TreeMap<Integer, byte[]> keyOfIndex = new TreeMap<>();
    private final Set<String> cachedKeys = new HashSet<>();
    private final ArrayDeque<Integer> freeIndices = new ArrayDeque<>();

    public CacheDirectory(int capacity) {
        this.capacity = capacity;
        clear();
    }

    /** Forgets every key: all slots free. */
    public void clear() {
        keyOfIndex.clear();
        cachedKeys.clear();
        freeIndices.clear();
        for (int i = 0; i < capacity; i++) {
            freeIndices.add(i);
        }
    }

    /** Takes a free slot for {@code key}; the caller checked {@link #isFull()}. */
    public int take(byte[] key) {
        int index = freeIndices.poll();
        keyOfIndex.put(index, key);
        cachedKeys.add(hex(key));
        return index;
    }

    /** Records that slot {@code index} holds {@code key} (a switch that kept its cache). */
    public void adopt(int index, byte[] key) {
        freeIndices.remove(index);
        keyOfIndex.put(index, key);
        cachedKeys.add(hex(key));
    }

    public void release(int index, byte[] key) {
        keyOfIndex.remove(index);
        cachedKeys.remove(hex(key));
        freeIndices.add(index);
    }

    public boolean contains(byte[] key) {
        return cachedKeys.contains(hex(key));
    }

    public boolean isFull() {
        return freeIndices.isEmpty();
    }

    public byte[] keyAt(int index) {
        return keyOfIndex.get(index);
    }

    /** Occupied slots, ascending. */
    public List<Integer> indices() {
        return new ArrayList<>(keyOfIndex.keySet());
    }

    public int size() {
        return keyOfIndex.size();
    }

    public static String hex(byte[] key) {
        return HexFormat.of().formatHex(key);
    }
}
