package dev.innet.kv.client;

import dev.innet.protocol.KvResult;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpKind;
import dev.innet.sim.history.OpResult;

/** How a client library records the end of an operation in a history, whatever its wire protocol. */
public final class HistoryOutcome {
    private HistoryOutcome() { }

    /** Completes operation {@code historyId} of {@code kind} with what {@code result} says (a GET's value if it found one). */
    public static void record(HistoryRecorder history, long historyId, OpKind kind, KvResult result) {
        switch (result.outcome()) {
            case OK -> history.complete(historyId, OpResult.OK, kind == OpKind.GET ? result.value() : null);
            case NOT_FOUND -> history.complete(historyId, OpResult.NOT_FOUND, null);
            case FAILED -> history.complete(historyId, OpResult.FAIL, null);
            case TIMED_OUT -> history.complete(historyId, OpResult.UNKNOWN, null);
        }
    }
}
