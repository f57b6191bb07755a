package dev.innet.kv.client;

import dev.innet.protocol.KvResult;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpKind;
import dev.innet.sim.history.OpResult;

/**
 * How a client library records its operations in a history, whatever its wire protocol. History
 * identity: after an operation ends unknown (timeout) the recorder requires its successors to use a
 * new client id, as Jepsen does for a crashed process; the id is host * 1,000,000 + incarnation *
 * 10,000 + unknowns so far. With no recorder nothing is recorded, but ids still advance.
 */
public final class ClientHistory {
    public static final int MAX_UNKNOWN_OUTCOMES = 10_000;

    private final NodeContext ctx;
    private final HistoryRecorder history;
    private int unknownOutcomes;

    /** @param history where operations are recorded, or null to record nothing */
    public ClientHistory(NodeContext ctx, HistoryRecorder history) {
        this.ctx = ctx;
        this.history = history;
    }

    /** The history client id operations are currently recorded under. */
    public int clientId() {
        return ctx.hostNumber() * 1_000_000 + ctx.incarnation() * 10_000 + unknownOutcomes;
    }

    /** Records the start of an operation; its id for {@link #complete} (0 when nothing is recorded). */
    public long invoke(OpKind kind, byte[] key, byte[] writtenValue) {
        if (unknownOutcomes >= MAX_UNKNOWN_OUTCOMES) {
            throw new IllegalStateException("client exhausted its history ids after 10,000 unknown outcomes");
        }
        return history == null ? 0 : history.invoke(clientId(), kind, key, writtenValue);
    }

    /** Records how operation {@code historyId} of {@code kind} ended (a GET's value if it found one). */
    public void complete(long historyId, OpKind kind, KvResult result) {
        if (history != null) {
            switch (result.outcome()) {
                case OK -> history.complete(historyId, OpResult.OK, kind == OpKind.GET ? result.value() : null);
                case NOT_FOUND -> history.complete(historyId, OpResult.NOT_FOUND, null);
                case FAILED -> history.complete(historyId, OpResult.FAIL, null);
                case TIMED_OUT -> history.complete(historyId, OpResult.UNKNOWN, null);
            }
        }
        if (result.outcome() == KvResult.Outcome.TIMED_OUT) {
            unknownOutcomes++;
        }
    }
}
