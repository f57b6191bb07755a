package dev.innet.rack.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpKind;
import dev.innet.sim.history.OpResult;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The lost-write monitor on hand-made histories: deletes that explain a "not found". */
class LostWriteMonitorTest {
    private long now;
    private final HistoryRecorder history = new HistoryRecorder(() -> now);
    private static final byte[] KEY = java.util.Arrays.copyOf("user2".getBytes(StandardCharsets.UTF_8), 16);
    private static final byte[] VALUE = "v1".getBytes(StandardCharsets.UTF_8);

    private long at(long t, int client, OpKind kind, byte[] value) {
        now = t;
        return history.invoke(client, kind, KEY, value);
    }

    private void done(long t, long id, OpResult result) {
        now = t;
        history.complete(id, result, null);
    }

    /**
     * From a LaKe rack run (seed 2 of LakeSeededBugTest's stress): delete A (10) runs across a put that
     * is acknowledged (30..40), a shorter delete B (20..25) ends before the put; a read after the put
     * finds nothing. A linearizes after the put: no write is lost, though B alone would not explain it.
     */
    @Test
    void aConcurrentDeleteExplainsANotFound() {
        long a = at(10, 1, OpKind.DELETE, null);
        long b = at(20, 2, OpKind.DELETE, null);
        done(25, b, OpResult.OK);
        long put = at(30, 3, OpKind.PUT, VALUE);
        done(40, put, OpResult.OK);
        long read = at(50, 4, OpKind.GET, null);
        done(50, a, OpResult.OK);
        done(60, read, OpResult.NOT_FOUND);
        assertEquals(0, LostWriteMonitor.check(history).size());
    }

    @Test
    void aNotFoundOnlyOlderDeletesExplainIsALostWrite() {
        long b = at(20, 2, OpKind.DELETE, null);
        done(25, b, OpResult.OK);
        long put = at(30, 3, OpKind.PUT, VALUE);
        done(40, put, OpResult.OK);
        long read = at(50, 4, OpKind.GET, null);
        done(60, read, OpResult.NOT_FOUND);
        assertEquals(1, LostWriteMonitor.check(history).size());
    }
    /**
     * Found by Pegasus's campaigns (retried deletes): a delete whose retries overlapped the acknowledged
     * write explains the "not found", even if a later-invoked delete completed before the write began.
     */
    @Test
    void aDeleteOverlappingTheWriteExplainsNotFoundEvenIfALaterInvokedDeleteCompletedFirst() {
        long slowDelete = at(10, 1, OpKind.DELETE, null);
        long quickDelete = at(20, 2, OpKind.DELETE, null);
        done(25, quickDelete, OpResult.OK);
        long w = at(30, 3, OpKind.PUT, VALUE);
        done(45, slowDelete, OpResult.OK); // completed after the write was invoked
        done(50, w, OpResult.OK);
        long r = at(60, 4, OpKind.GET, null);
        done(70, r, OpResult.NOT_FOUND);
        assertEquals(0, LostWriteMonitor.check(history).size(), LostWriteMonitor.check(history).toString());
    }

    /** Files: a stat that finds nothing after an acknowledged create, or an older state after an acknowledged write. */
    @Test
    void aStatAfterAnAcknowledgedCreateOrWriteMustSeeIt() {
        long create = at(0, 1, OpKind.CREATE, "c".getBytes(StandardCharsets.UTF_8));
        done(10, create, OpResult.OK);
        long missing = at(20, 2, OpKind.STAT, null);
        done(30, missing, OpResult.NOT_FOUND);
        long write = at(40, 1, OpKind.WRITE, VALUE);
        done(50, write, OpResult.OK);
        long stale = at(60, 2, OpKind.STAT, null);
        now = 70;
        history.complete(stale, OpResult.OK, "c".getBytes(StandardCharsets.UTF_8));
        long fresh = at(80, 3, OpKind.STAT, null);
        now = 90;
        history.complete(fresh, OpResult.OK, VALUE);
        assertEquals(2, LostWriteMonitor.check(history).size(), LostWriteMonitor.check(history).toString());
    }
}
