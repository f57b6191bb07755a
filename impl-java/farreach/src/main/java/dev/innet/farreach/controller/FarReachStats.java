package dev.innet.farreach.controller;

import dev.innet.kv.cache.CacheControllerStats;
import java.util.Map;

/** The cache controller's counters plus FarReach's own (volatile: a controller crash resets them). */
public final class FarReachStats extends CacheControllerStats {
    public long evictStoreRetries;
    /** SEQ_PROBE retransmissions (admission's fill floor). */
    public long probeRetries;
    public long snapshotOriginals;
    public long snapshots;
    public long snapshotsAbandoned;
    public long recoveries;
    public long recoverySilentClientReports;
    public long sequenceRangeAdvances;

    @Override
    public Map<String, Long> asMap() {
        Map<String, Long> m = super.asMap();
        m.put("evictStoreRetries", evictStoreRetries);
        m.put("probeRetries", probeRetries);
        m.put("snapshotOriginals", snapshotOriginals);
        m.put("snapshots", snapshots);
        m.put("snapshotsAbandoned", snapshotsAbandoned);
        m.put("recoveries", recoveries);
        m.put("recoverySilentClientReports", recoverySilentClientReports);
        m.put("sequenceRangeAdvances", sequenceRangeAdvances);
        return m;
    }
}
