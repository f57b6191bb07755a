package dev.innet.kv;

import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;

/**
 * Decides when a server reports a key as hot to the controller (FarReach §3.2: servers report keys
 * whose in-switch Count-Min Sketch estimate crossed the threshold; the switch marks such requests).
 * A key is reported at most once per period, so a hot key does not flood the controller with
 * duplicate reports while its admission is in progress; the controller resets the period.
 */
public final class HotKeyTracker {
    private final int capacity;
    private final Set<String> reportedThisPeriod = new HashSet<>();
    private final Map<String, Long> counts = new HashMap<>();

    /** @param capacity at most this many distinct keys reported per period (bounded memory) */
    public HotKeyTracker(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        this.capacity = capacity;
    }

    /**
     * Records one hot-marked request for {@code key}; returns true exactly when the server should
     * send a report now (first time in this period, capacity permitting).
     */
    public boolean observeHot(byte[] key) {
        String k = HexFormat.of().formatHex(key);
        counts.merge(k, 1L, Long::sum);
        if (reportedThisPeriod.contains(k) || reportedThisPeriod.size() >= capacity) {
            return false;
        }
        reportedThisPeriod.add(k);
        return true;
    }

    public long count(byte[] key) {
        return counts.getOrDefault(HexFormat.of().formatHex(key), 0L);
    }

    /** Starts a new period: every key may be reported again. */
    public void resetPeriod() {
        reportedThisPeriod.clear();
        counts.clear();
    }
}
