package dev.innet.rack.workload;

import dev.innet.wire.InnetMessage;

/**
 * What a workload client does: operations over keys "user&lt;i&gt;" (i < keys) chosen zipfian with
 * {@code zipfTheta} (0.99 is YCSB's default skew), reads with probability {@code readFraction}, deletes
 * with {@code deleteFraction}, writes otherwise; or, with a {@code chooser}, whatever it chooses (the
 * other choice fields are then unused). Values are unique per write (client, incarnation, counter) so a
 * history shows which write a read saw; {@code valueBytes} pads them to a fixed size.
 */
public record Workload(int keys, double zipfTheta, double readFraction, double deleteFraction, int valueBytes,
        long thinkNanos, OperationChooser chooser) {
    public Workload {
        if (keys < 1 || readFraction < 0 || deleteFraction < 0 || readFraction + deleteFraction > 1 || valueBytes < 1
                || valueBytes > InnetMessage.MAX_VALUE_BYTES || thinkNanos < 0) {
            throw new IllegalArgumentException("invalid workload");
        }
    }

    /** The built-in zipfian mix (no chooser). */
    public Workload(int keys, double zipfTheta, double readFraction, double deleteFraction, int valueBytes, long thinkNanos) {
        this(keys, zipfTheta, readFraction, deleteFraction, valueBytes, thinkNanos, null);
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
        return new Workload(keys, zipfTheta, readFraction, deleteFraction, valueBytes, thinkNanos, c);
    }
}
