package dev.innet.kv.server;

/** Counters a server keeps for reports and tests; volatile (reset by a crash). */
public final class ServerStats {
    public long requests;
    public long malformed;
    public long wrongPartition;
    public long badOp;
    public long staleWritesIgnored;
    /** Numbered writes refused because a recovery fenced off the switch incarnation that numbered them. */
    public long fencedWritesRefused;
    public long hotReports;

    @Override
    public String toString() {
        return "requests=" + requests + " malformed=" + malformed + " wrongPartition=" + wrongPartition + " badOp=" + badOp
                + " staleIgnored=" + staleWritesIgnored + " fencedRefused=" + fencedWritesRefused + " hotReports="
                + hotReports;
    }
}
