package dev.innet.kv.cache;

import java.util.Map;
import java.util.TreeMap;

/** What a cache controller did, for reports and tests (volatile: a controller crash resets it). */
public class CacheControllerStats {
    public long hotReports;
    public long reportsIgnored;
    public long admissions;
    public long evictions;
    public long counterResets;
    public long switchBringUps;
    public long malformed;

    /** Every counter by name (subclasses add theirs). */
    public Map<String, Long> asMap() {
        Map<String, Long> m = new TreeMap<>();
        m.put("hotReports", hotReports);
        m.put("reportsIgnored", reportsIgnored);
        m.put("admissions", admissions);
        m.put("evictions", evictions);
        m.put("counterResets", counterResets);
        m.put("switchBringUps", switchBringUps);
        m.put("malformed", malformed);
        return m;
    }

    @Override
    public String toString() {
        return asMap().toString();
    }
}
