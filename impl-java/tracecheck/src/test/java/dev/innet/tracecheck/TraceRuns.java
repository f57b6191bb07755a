package dev.innet.tracecheck;

import dev.innet.farreach.FarReachProtocol;
import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.workload.Workload;
import java.nio.file.Path;

/**
 * Small FarReach rack runs for trace validation: few clients and keys, a short chaos phase with the
 * campaign's lossy, duplicating, reordering switch-server links, deletes, and the
 * events recorded. Sizes are chosen so TLC decides a run in seconds.
 */
final class TraceRuns {
    private TraceRuns() {}

    static final int CACHE_SLOTS = 2;

    /** 2 servers, 3 clients, cache 2, 3 keys (90% skew), half reads, 5% deletes (the campaign's fraction), hot threshold 2. */
    static CampaignSettings small(long chaosNanos) {
        return small(chaosNanos, 0.05);
    }

    /** As {@link #small(long)} with {@code deleteFraction} of the operations deletes. */
    static CampaignSettings small(long chaosNanos, double deleteFraction) {
        return new CampaignSettings(2, 3, CACHE_SLOTS, new Workload(3, 0.9, 0.5, deleteFraction, 16, 0), 2, 1_000_000,
                chaosNanos, 5_000_000, 20_000, CampaignSettings.LOSSY);
    }

    /**
     * As {@link #small(long)} with the default simulation campaign's client side ({@link CampaignSettings#sim()}):
     * lossy, duplicating, reordering client links that also lose replies, and values of 1-160 bytes (some too
     * long for the cache, FR-9).
     */
    static CampaignSettings simLike(long chaosNanos) {
        CampaignSettings small = small(chaosNanos);
        return small.withClientFaults(CampaignSettings.CLIENT_LOSSY).withClientReplyLoss(true)
                .withWorkload(small.workload().withValueLengths(CampaignSettings.SIM_MIN_VALUE_BYTES,
                        CampaignSettings.SIM_MAX_VALUE_BYTES));
    }

    /**
     * Runs {@code protocol} as configured (FarReach's clients retry writes by default) on {@link #simLike} with
     * durable (RocksDB) servers under {@code out}'s directory, so a server may crash and restart; {@code faults}
     * are scheduled first. Writes the trace events to {@code out}; returns the rack.
     */
    static Rack runSimLike(FarReachProtocol protocol, long seed, long chaosNanos, Path out, Path programSource,
            java.util.function.Consumer<Rack> faults) {
        Path durable = out.resolveSibling("durable");
        deleteTree(durable); // a store left by an earlier run would hold its records at the start
        Rack.Builder b = simLike(chaosNanos).rack(RackRuns.root(), protocol, seed).recordTraceEvents(true)
                .rocksdb(durable).out(RackRuns.QUIET);
        if (programSource != null) {
            b.programSource(programSource);
        }
        Rack rack = b.build();
        faults.accept(rack);
        rack.run();
        rack.simulation().writeTraceEvents(out);
        return rack;
    }

    private static void deleteTree(Path dir) {
        if (!java.nio.file.Files.exists(dir)) {
            return;
        }
        try (var paths = java.nio.file.Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                java.nio.file.Files.delete(p);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot clear " + dir, e);
        }
    }

    /** Runs {@code protocol} and writes its trace events to {@code out}; returns the rack. */
    static Rack run(FarReachProtocol protocol, long seed, long chaosNanos, Path out) {
        return run(protocol, seed, chaosNanos, out, rack -> { });
    }

    /** As {@link #run(FarReachProtocol, long, long, Path)}, with {@code faults} scheduled on the rack first. */
    static Rack run(FarReachProtocol protocol, long seed, long chaosNanos, Path out, java.util.function.Consumer<Rack> faults) {
        return run(protocol, seed, chaosNanos, 0.05, out, faults);
    }

    /** As {@link #run(FarReachProtocol, long, long, Path, java.util.function.Consumer)} with {@code deleteFraction} deletes. */
    static Rack run(FarReachProtocol protocol, long seed, long chaosNanos, double deleteFraction, Path out,
            java.util.function.Consumer<Rack> faults) {
        // writes sent once keep these runs (and their seeded-bug rejections) small; runSimLike retries them
        Rack rack = small(chaosNanos, deleteFraction).rack(RackRuns.root(), protocol.withWriteRetries(false), seed)
                .recordTraceEvents(true).out(RackRuns.QUIET).build();
        faults.accept(rack);
        rack.run();
        rack.simulation().writeTraceEvents(out);
        return rack;
    }
}
