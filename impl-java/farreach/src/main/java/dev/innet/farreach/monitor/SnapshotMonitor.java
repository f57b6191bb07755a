package dev.innet.farreach.monitor;

import dev.innet.kv.store.StoredRecord;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.SwitchControl;
import dev.innet.farreach.controller.CachedRecord;
import dev.innet.farreach.controller.ControllerHooks;
import dev.innet.farreach.controller.FarReachControlNames;
import dev.innet.kv.cache.CacheControlNames;
import dev.innet.switchapi.SwitchHandle;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * "The snapshot the controller keeps equals the cache contents at the snapshot point", checked at run
 * time: at the snapshot point the monitor reads every valid record straight from the switch (it is an
 * observer outside the protocol, and the read happens in the same simulated instant as the point), and
 * when the controller completes that snapshot the two must be equal, record for record. It reads the
 * registers with its own code rather than the controller's, so a bug in the controller's record reading
 * cannot hide itself.
 */
public final class SnapshotMonitor implements ControllerHooks {
    private final SwitchHandle switchHandle;
    private final Map<Long, Map<String, CachedRecord>> atSnapshotPoint = new TreeMap<>();
    private final List<String> violations = new ArrayList<>();
    private final List<long[]> snapshotTimes = new ArrayList<>();
    private final List<long[]> recoveries = new ArrayList<>();
    private int checked;

    /** @param switchHandle the rack's connection to the switch, read here as an outside observer */
    public SnapshotMonitor(SwitchHandle switchHandle) {
        this.switchHandle = switchHandle;
    }

    @Override
    public void snapshotPoint(long epoch) {
        SwitchControl c = switchHandle.control();
        Map<String, CachedRecord> cache = new TreeMap<>();
        for (EntrySpec e : c.readEntries(CacheControlNames.CACHE_LOOKUP)) {
            int index = e.args().get(0).intValue();
            if (c.registerRead(CacheControlNames.RECORD_VALID, index).signum() == 0) {
                continue;
            }
            byte[] key = keyBytes(((Match.Exact) e.match().get(0)).value());
            long seq = c.registerRead(CacheControlNames.RECORD_SEQ, index).longValue();
            StoredRecord r = c.registerRead(FarReachControlNames.RECORD_DELETED, index).signum() != 0 ? StoredRecord.tombstone(seq)
                    : StoredRecord.value(value(c, index), seq);
            cache.put(HexFormat.of().formatHex(key), new CachedRecord(key, r));
        }
        atSnapshotPoint.put(epoch, cache);
    }

    @Override
    public void snapshotTaken(long epoch, List<CachedRecord> records, long startedNanos, long endedNanos) {
        snapshotTimes.add(new long[] {startedNanos, endedNanos});
        Map<String, CachedRecord> expected = atSnapshotPoint.remove(epoch);
        if (expected == null) {
            violations.add("snapshot " + epoch + " completed without a snapshot point");
            return;
        }
        Map<String, CachedRecord> kept = new TreeMap<>();
        for (CachedRecord r : records) {
            kept.put(r.keyHex(), r);
        }
        checked++;
        if (!kept.equals(expected)) {
            List<String> diffs = new ArrayList<>();
            for (String k : expected.keySet()) {
                if (!expected.get(k).equals(kept.get(k))) {
                    diffs.add(k + ": cache had " + expected.get(k).record() + ", snapshot has "
                            + (kept.containsKey(k) ? kept.get(k).record() : "nothing"));
                }
            }
            for (String k : kept.keySet()) {
                if (!expected.containsKey(k)) {
                    diffs.add(k + ": not cached at the snapshot point, snapshot has " + kept.get(k).record());
                }
            }
            violations.add("snapshot " + epoch + " differs from the cache at its snapshot point: " + diffs);
        }
    }

    @Override
    public void recovered(long startedNanos, long endedNanos, int replayed, int readmitted, int clientsAnswered) {
        recoveries.add(new long[] {startedNanos, endedNanos, replayed, readmitted, clientsAnswered});
    }

    public List<String> violations() {
        return List.copyOf(violations);
    }

    /** Snapshots compared (completed ones whose point the monitor saw). */
    public int checked() {
        return checked;
    }

    /** [start, end] of every completed snapshot, in simulated nanoseconds. */
    public List<long[]> snapshotTimes() {
        return List.copyOf(snapshotTimes);
    }

    /** [start, end, replayed, readmitted, clients answered] of every recovery. */
    public List<long[]> recoveries() {
        return List.copyOf(recoveries);
    }

    private static byte[] value(SwitchControl c, int index) {
        int length = c.registerRead(CacheControlNames.RECORD_VALLEN, index).intValue();
        byte[] v = new byte[length];
        for (int w = 0; w * 8 < length; w++) {
            long word = c.registerRead(CacheControlNames.valueWord(w), index).longValue();
            for (int b = 0; b < 8 && w * 8 + b < length; b++) {
                v[w * 8 + b] = (byte) (word >>> (56 - 8 * b));
            }
        }
        return v;
    }

    private static byte[] keyBytes(BigInteger v) {
        byte[] raw = v.toByteArray();
        byte[] key = new byte[16];
        int copy = Math.min(raw.length, key.length);
        System.arraycopy(raw, raw.length - copy, key, key.length - copy, copy);
        return key;
    }
}
