package dev.innet.p4sim.coverage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The hit counters of one switch instance. The code generator registers every point while it
 * compiles ({@link #add}) and emits a probe calling {@link #hit} where the point happens; a switch
 * compiled without coverage has no recorder and no probes at all, so it pays nothing.
 * Not thread-safe, like the switch it belongs to.
 */
public final class CoverageRecorder {
    private final List<CoveragePoint> points = new ArrayList<>();
    private long[] hits = new long[64];

    /** Registers a point; returns its id for {@link #hit}. */
    public int add(CoveragePoint p) {
        if (points.size() == hits.length) {
            hits = Arrays.copyOf(hits, hits.length * 2);
        }
        points.add(p);
        return points.size() - 1;
    }

    public void hit(int id) {
        hits[id]++;
    }

    /** The counts so far, as an immutable value (later hits do not change it). */
    public Coverage snapshot() {
        return Coverage.of(points, Arrays.copyOf(hits, points.size()));
    }
}
