package dev.innet.visibility.metadata;

import java.util.ArrayList;
import java.util.List;

/**
 * A sorted map as a skiplist (Pugh 1990), the kind of in-memory index the paper's metadata node keeps (§III-D,
 * issue 17: "a B+-tree or skiplist"). Single-threaded, like every node: the event loop is its only user.
 *
 * <p>Each node is linked on its level and every level below; a node's level is drawn with probability 1/4 per
 * extra level, from a xorshift generator with a fixed seed, so the structure (and so the work an operation
 * does) is the same in every run: the simulator's runs stay reproducible without a random source from the
 * node's context. The keys' order never depends on the draws, only the search paths do.
 */
final class SkipList<K extends Comparable<K>, V> {
    /** 4^16 nodes before the top level is crowded: far beyond 2^16 switch slots' worth of keys. */
    static final int MAX_LEVEL = 16;

    private static final class Node<K, V> {
        final K key;
        V value;
        final Node<K, V>[] next;

        @SuppressWarnings("unchecked")
        Node(K key, V value, int level) {
            this.key = key;
            this.value = value;
            this.next = (Node<K, V>[]) new Node[level];
        }
    }

    private final Node<K, V> head = new Node<>(null, null, MAX_LEVEL);
    /** Levels in use: 1 .. MAX_LEVEL. */
    private int level = 1;
    private int size;
    private long draws = 0x9E3779B97F4A7C15L;

    /** The value stored under {@code key}, or null. */
    V get(K key) {
        Node<K, V> n = head;
        for (int l = level - 1; l >= 0; l--) {
            while (n.next[l] != null && n.next[l].key.compareTo(key) < 0) {
                n = n.next[l];
            }
        }
        n = n.next[0];
        return n != null && n.key.compareTo(key) == 0 ? n.value : null;
    }

    /** Stores {@code value} under {@code key}, replacing what was there; returns the old value or null. */
    V put(K key, V value) {
        @SuppressWarnings("unchecked")
        Node<K, V>[] before = (Node<K, V>[]) new Node[MAX_LEVEL];
        Node<K, V> n = head;
        for (int l = level - 1; l >= 0; l--) {
            while (n.next[l] != null && n.next[l].key.compareTo(key) < 0) {
                n = n.next[l];
            }
            before[l] = n;
        }
        Node<K, V> at = n.next[0];
        if (at != null && at.key.compareTo(key) == 0) {
            V old = at.value;
            at.value = value;
            return old;
        }
        int nodeLevel = drawLevel();
        for (int l = level; l < nodeLevel; l++) {
            before[l] = head;
        }
        level = Math.max(level, nodeLevel);
        Node<K, V> added = new Node<>(key, value, nodeLevel);
        for (int l = 0; l < nodeLevel; l++) {
            added.next[l] = before[l].next[l];
            before[l].next[l] = added;
        }
        size++;
        return null;
    }

    int size() {
        return size;
    }

    /** The values in key order. */
    List<V> values() {
        List<V> out = new ArrayList<>(size);
        for (Node<K, V> n = head.next[0]; n != null; n = n.next[0]) {
            out.add(n.value);
        }
        return out;
    }

    /** Levels in use (tests: the structure grows as a skiplist should). */
    int levels() {
        return level;
    }

    private int drawLevel() {
        // xorshift64: two bits per level, so each extra level has probability 1/4
        draws ^= draws << 13;
        draws ^= draws >>> 7;
        draws ^= draws << 17;
        int l = 1;
        long bits = draws;
        while (l < MAX_LEVEL && (bits & 3) == 0) {
            l++;
            bits >>>= 2;
        }
        return l;
    }
}
