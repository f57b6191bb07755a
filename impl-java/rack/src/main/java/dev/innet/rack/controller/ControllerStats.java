package dev.innet.rack.controller;

/** What the controller did, for reports and tests (volatile: a controller crash resets it). */
public final class ControllerStats {
    public long hotReports;
    public long reportsIgnored;
    public long admissions;
    public long evictions;
    public long evictStoreRetries;
    public long counterResets;
    public long switchBringUps;
    public long snapshotOriginals;
    public long malformed;
    public long snapshots;
    public long snapshotsAbandoned;
    public long recoveries;
    public long recoveryClientsMissing;

    @Override
    public String toString() {
        return "hotReports=" + hotReports + " ignored=" + reportsIgnored + " admissions=" + admissions + " evictions="
                + evictions + " evictRetries=" + evictStoreRetries + " resets=" + counterResets + " bringUps="
                + switchBringUps;
    }
}
