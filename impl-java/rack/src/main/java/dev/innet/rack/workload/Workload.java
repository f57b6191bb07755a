package dev.innet.rack.workload;

import dev.innet.wire.InnetMessage;

/**
 * What a workload client does: operations over keys "user&lt;i&gt;" (i < keys) chosen zipfian with
 * {@code zipfTheta} (0.99 is YCSB's default skew), reads with probability {@code readFraction}, deletes
 * with {@code deleteFraction}, writes otherwise; or, with a {@code chooser}, whatever it chooses (the
 * other choice fields are then unused). Values are unique per write (client, incarnation, counter) so a
 * history shows which write a read saw; each is padded to a length drawn uniformly from
 * {@code valueBytes..maxValueBytes} (a fixed size when they are equal; never shorter than its unique
 * prefix, about 10 bytes).
 */
public record Workload(int keys, double zipfTheta, double readFraction, double deleteFraction, int valueBytes,
        long thinkNanos, int maxValueBytes, OperationChooser chooser) {
    public Workload {
        if (keys < 1 || readFraction < 0 || deleteFraction < 0 || readFraction + deleteFraction > 1 || valueBytes < 1
                || valueBytes > InnetMessage.MAX_VALUE_BYTES || thinkNanos < 0 || maxValueBytes < valueBytes
                || maxValueBytes > InnetMessage.MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("invalid workload");
        }
    }

    /** Values of exactly {@code valueBytes}, the built-in zipfian mix (no chooser). */
    public Workload(int keys, double zipfTheta, double readFraction, double deleteFraction, int valueBytes,
            long thinkNanos) {
        this(keys, zipfTheta, readFraction, deleteFraction, valueBytes, thinkNanos, valueBytes, null);
    }

    /** Value lengths drawn from {@code valueBytes..maxValueBytes}, the built-in zipfian mix. */
    public Workload(int keys, double zipfTheta, double readFraction, double deleteFraction, int valueBytes,
            long thinkNanos, int maxValueBytes) {
        this(keys, zipfTheta, readFraction, deleteFraction, valueBytes, thinkNanos, maxValueBytes, null);
    }

    /** The same workload with value lengths drawn from {@code min..max} per write. */
    public Workload withValueLengths(int min, int max) {
        return new Workload(keys, zipfTheta, readFraction, deleteFraction, min, thinkNanos, max, chooser);
    }

    /** YCSB workload A: 50% reads, 50% updates, zipfian 0.99. */
    public static Workload ycsbA(int keys, int valueBytes) {
        return new Workload(keys, 0.99, 0.5, 0, valueBytes, 0);
    }

    /** Write-only, zipfian 0.99 (the FarReach paper's write-intensive case). */
    public static Workload writeOnly(int keys, int valueBytes) {
        return new Workload(keys, 0.99, 0, 0, valueBytes, 0);
    }

    /** This workload with its operations chosen by {@code c} (e.g. a seeded YCSB core workload). */
    public Workload withChooser(OperationChooser c) {
        return new Workload(keys, zipfTheta, readFraction, deleteFraction, valueBytes, thinkNanos, maxValueBytes, c);
    }
}
