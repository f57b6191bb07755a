package dev.innet.rack.check;

import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpKind;
import dev.innet.sim.history.OpResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * "Every acknowledged write is readable afterwards", checked directly on a history, independent of
 * porcupine: for each read that started after an acknowledged write W to its key had completed, the
 * value read must come from W or from a write not known to precede W (one that completed after W was
 * invoked, or whose outcome is unknown). Reading an older value, or nothing, means W was lost.
 * Deletes count as writes of "nothing". For files (docs/history-format.md §3.2) the same holds with stat
 * as the read and create and write as the writes (a create that found the file, result exists, wrote
 * nothing, so it is never the acknowledged write; files are never removed, so nothing explains a stat
 * that finds no file after an acknowledged create).
 */
public final class LostWriteMonitor {
    public record Violation(String key, String description) {}

    private LostWriteMonitor() {}

    public static List<Violation> check(HistoryRecorder history) {
        Map<String, List<HistoryRecorder.Operation>> writesByKey = new HashMap<>();
        List<HistoryRecorder.Operation> reads = new ArrayList<>();
        for (HistoryRecorder.Operation op : history.operations()) {
            if (op.result() == OpResult.FAIL || op.isOpen()) {
                continue;
            }
            if (op.kind().reads()) {
                if (op.result() != OpResult.UNKNOWN) {
                    reads.add(op);
                }
            } else {
                writesByKey.computeIfAbsent(hex(op), k -> new ArrayList<>()).add(op);
            }
        }
        List<Violation> violations = new ArrayList<>();
        for (HistoryRecorder.Operation read : reads) {
            List<HistoryRecorder.Operation> writes = writesByKey.getOrDefault(hex(read), List.of());
            HistoryRecorder.Operation latestAcked = null;
            for (HistoryRecorder.Operation w : writes) {
                boolean acked = w.result() == OpResult.OK;
                if (acked && w.returnNanos() < read.callNanos()
                        && (latestAcked == null || w.returnNanos() > latestAcked.returnNanos())) {
                    latestAcked = w;
                }
            }
            if (latestAcked == null) {
                continue;
            }
            List<HistoryRecorder.Operation> sources = sourcesOf(read, writes);
            final HistoryRecorder.Operation acked = latestAcked;
            boolean ok = sources.stream().anyMatch(source -> source == acked
                    || source.result() == OpResult.UNKNOWN || source.returnNanos() >= acked.callNanos());
            if (!ok) {
                String saw = read.result() == OpResult.NOT_FOUND ? "no value" : "a value";
                violations.add(new Violation(hex(read), "read " + read.id() + " at " + read.callNanos() + " saw " + saw
                        + " (writes that could explain it: " + sources.stream().map(w -> w.id()).toList() + ")"
                        + " although write " + latestAcked.id() + " was acknowledged at " + latestAcked.returnNanos()));
            }
        }
        return violations;
    }

    /**
     * The writes that can explain what a read returned: the write of its value (values are unique per
     * write), or for "not found" every delete invoked before the read returned. The read is fine if any
     * of them may come after the latest acknowledged write; picking one delete would accuse a read
     * that a concurrent delete explains.
     */
    private static List<HistoryRecorder.Operation> sourcesOf(HistoryRecorder.Operation read,
            List<HistoryRecorder.Operation> writes) {
        List<HistoryRecorder.Operation> out = new ArrayList<>();
        for (HistoryRecorder.Operation w : writes) {
            boolean explains = read.result() == OpResult.NOT_FOUND
                    ? w.kind() == OpKind.DELETE && w.callNanos() <= read.returnNanos()
                    : w.kind().writesValue() && Arrays.equals(w.value(), read.value());
            if (explains) {
                out.add(w);
            }
        }
        return out;
    }

    private static String hex(HistoryRecorder.Operation op) {
        return HexFormat.of().formatHex(op.key());
    }
}
