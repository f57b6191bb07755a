package dev.innet.rack.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpKind;
import dev.innet.sim.history.OpResult;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The lost-write monitor on hand-made histories: a lost write is reported, a late delete is not. */
class LostWriteMonitorTest {
    private long now;
    private final HistoryRecorder h = new HistoryRecorder(() -> now);
    private final byte[] key = Arrays.copyOf("k".getBytes(StandardCharsets.US_ASCII), 16);

    private long call(long at, int client, OpKind kind, String value) {
        now = at;
        return h.invoke(client, kind, key, value == null ? null : value.getBytes(StandardCharsets.US_ASCII));
    }

    private void done(long at, long id, OpResult r, String read) {
        now = at;
        h.complete(id, r, read == null ? null : read.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void aReadOfNothingAfterAnAcknowledgedWriteWhoseOnlyDeletePrecededItIsALostWrite() {
        long d = call(10, 1, OpKind.DELETE, null);
        done(20, d, OpResult.OK, null);
        long w = call(30, 2, OpKind.PUT, "v");
        done(40, w, OpResult.OK, null);
        long r = call(50, 3, OpKind.GET, null);
        done(60, r, OpResult.NOT_FOUND, null);
        assertEquals(1, LostWriteMonitor.check(h).size());
    }

    /**
     * Found by Pegasus's campaigns (retried deletes): a delete whose retries overlapped the acknowledged
     * write explains the "not found", even if a later delete completed before the write began.
     */
    @Test
    void aDeleteOverlappingTheWriteExplainsNotFoundEvenIfAnEarlierCompletedDeleteIsMoreRecent() {
        long slowDelete = call(10, 1, OpKind.DELETE, null);
        long quickDelete = call(20, 2, OpKind.DELETE, null);
        done(25, quickDelete, OpResult.OK, null);
        long w = call(30, 3, OpKind.PUT, "v");
        done(45, slowDelete, OpResult.OK, null); // completed after the write was invoked
        done(50, w, OpResult.OK, null);
        long r = call(60, 4, OpKind.GET, null);
        done(70, r, OpResult.NOT_FOUND, null);
        assertTrue(LostWriteMonitor.check(h).isEmpty(), LostWriteMonitor.check(h).toString());
    }
}
