package dev.innet.rack.workload;

import dev.innet.protocol.ClientStats;
import dev.innet.protocol.KvResult;
import java.util.TreeMap;

/** Operation counts of a run, with completions per time bucket for throughput-over-time plots. */
public final class WorkloadStats implements ClientStats {
    private final long bucketNanos;
    public long completed;
    public long reads;
    public long writes;
    public long cacheHits;
    public long failed;
    public long timedOut;
    public long latencySumNanos;
    private final TreeMap<Long, Long> completionsPerBucket = new TreeMap<>();
    private final TreeMap<Long, Long> hitsPerBucket = new TreeMap<>();

    public WorkloadStats(long bucketNanos) {
        this.bucketNanos = bucketNanos;
    }

    @Override
    public void record(KvResult r, long latencyNanos, boolean read, long nowNanos) {
        switch (r.outcome()) {
            case OK, NOT_FOUND -> {
                completed++;
                latencySumNanos += latencyNanos;
                if (read) {
                    reads++;
                } else {
                    writes++;
                }
                if (r.fromSwitch()) {
                    cacheHits++;
                    hitsPerBucket.merge(nowNanos / bucketNanos, 1L, Long::sum);
                }
                completionsPerBucket.merge(nowNanos / bucketNanos, 1L, Long::sum);
            }
            case FAILED -> failed++;
            case TIMED_OUT -> timedOut++;
        }
    }

    public TreeMap<Long, Long> completionsPerBucket() {
        return completionsPerBucket;
    }

    public TreeMap<Long, Long> hitsPerBucket() {
        return hitsPerBucket;
    }

    public long bucketNanos() {
        return bucketNanos;
    }
}
