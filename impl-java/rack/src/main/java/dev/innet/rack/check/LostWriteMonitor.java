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
 * Deletes count as writes of "nothing".
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
            if (op.kind() == OpKind.GET) {
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
            HistoryRecorder.Operation source = sourceOf(read, writes, latestAcked);
            boolean ok = source != null && notBefore(source, latestAcked);
            if (!ok) {
                violations.add(new Violation(hex(read), "read " + read.id() + " at " + read.callNanos() + " saw "
                        + (source == null ? "no value" : "write " + source.id()) + " although write " + latestAcked.id()
                        + " was acknowledged at " + latestAcked.returnNanos()));
            }
        }
        return violations;
    }

    /** Whether {@code source} may have taken effect after {@code acked}: not known to precede it. */
    private static boolean notBefore(HistoryRecorder.Operation source, HistoryRecorder.Operation acked) {
        return source == acked || source.result() == OpResult.UNKNOWN || source.returnNanos() >= acked.callNanos();
    }

    /**
     * The write whose value a read returned (values are unique per write), or null for none. A "not
     * found" may come from any delete invoked before the read returned: one not known to precede the
     * acknowledged write is preferred (a delete whose retries overlapped that write may have taken
     * effect after it), else the most recent one, which the report then names.
     */
    private static HistoryRecorder.Operation sourceOf(HistoryRecorder.Operation read, List<HistoryRecorder.Operation> writes,
            HistoryRecorder.Operation acked) {
        if (read.result() == OpResult.NOT_FOUND) {
            HistoryRecorder.Operation best = null;
            for (HistoryRecorder.Operation w : writes) {
                if (w.kind() != OpKind.DELETE || w.callNanos() > read.returnNanos()) {
                    continue;
                }
                if (notBefore(w, acked)) {
                    return w;
                }
                if (best == null || w.callNanos() > best.callNanos()) {
                    best = w;
                }
            }
            return best;
        }
        for (HistoryRecorder.Operation w : writes) {
            if (w.kind() == OpKind.PUT && Arrays.equals(w.value(), read.value())) {
                return w;
            }
        }
        return null;
    }

    private static String hex(HistoryRecorder.Operation op) {
        return HexFormat.of().formatHex(op.key());
    }
}
