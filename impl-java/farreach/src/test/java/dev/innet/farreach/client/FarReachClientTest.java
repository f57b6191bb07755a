package dev.innet.farreach.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.wire.SnapshotCoverage;
import dev.innet.kv.FakeContext;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.client.ClientConfig;
import dev.innet.protocol.KvResult;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.UdpFrame;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Record preservation (§3.4), one message at a time: which switch-answered writes a client keeps, and
 * the release rule: a preserved record is dropped only by a SNAPSHOT_DONE entry whose seq covers it
 * (is at least its seq); and the write-retry rule: a timed-out write is sent again with its request id,
 * except after a switch restart, which forgot its first copy. Each assertion fails on a one-line change
 * to the rule (docs/farreach.md, "Rules and the tests that pin them").
 */
class FarReachClientTest {
    private static final int CLIENT = 10;
    private static final int SERVER = 1;
    private static final int CONTROLLER = 254;
    private static final byte[] KEY = InnetMessage.key("k");
    private static final byte[] OTHER_KEY = InnetMessage.key("other");

    @TempDir
    Path dir;
    private FakeContext ctx;
    private FarReachClient client;

    @BeforeEach
    void start() {
        ctx = new FakeContext(CLIENT, dir);
        client = new FarReachClient(ctx, ClientConfig.defaults(List.of(SERVER)), null);
    }

    /** Puts {@code value}, answered by the switch with {@code seq} (or by the server if not fromSwitch). */
    private void put(byte[] key, String value, long seq, boolean fromSwitch) throws Exception {
        ctx.sent.clear();
        client.put(key, value.getBytes(StandardCharsets.UTF_8), r -> {});
        InnetPacket request = InnetPacket.decode(ctx.sent.getLast());
        InnetMessage reply = new InnetMessage(KvOp.PUT_REPLY, fromSwitch ? KvOp.FLAG_FROM_SWITCH : 0, KvStatus.OK,
                request.message().reqId(), key, seq, new byte[0], new byte[0]);
        assertTrue(client.onPacket(request.frame().reply(reply.encode()).encode()));
    }

    /** The controller's SNAPSHOT_DONE naming (key, seq) pairs. */
    private void snapshotDone(SnapshotCoverage.Entry... entries) {
        for (byte[] value : SnapshotCoverage.encode(List.of(entries))) {
            InnetMessage done = new InnetMessage(KvOp.SNAPSHOT_DONE, 0, 0, 1, new byte[InnetMessage.KEY_BYTES], 0,
                    new byte[0], value);
            UdpFrame frame = new UdpFrame(0, 0, 0x0a0000fe, 0x0a000000 | CLIENT, KvOp.CONTROL_PORT, KvOp.CONTROL_PORT,
                    done.encode());
            assertTrue(client.onPacket(frame.encode()));
        }
    }

    private List<Long> preservedSeqs() {
        return client.preservedRecords().stream().map(FarReachClient.PreservedRecord::seq).toList();
    }

    @Test
    void keepsOnlyWritesTheSwitchAnswered() throws Exception {
        put(KEY, "from-server", 3, false);
        assertEquals(List.of(), preservedSeqs());
        put(KEY, "from-switch", 4, true);
        assertEquals(List.of(4L), preservedSeqs());
    }

    @Test
    void keepsTheNewestRecordPerKey() throws Exception {
        put(KEY, "v7", 7, true);
        put(KEY, "v5", 5, true); // an older seq (another slot's numbering cannot do this for one key; a guard)
        assertEquals(List.of(7L), preservedSeqs());
        put(KEY, "v9", 9, true);
        assertEquals(List.of(9L), preservedSeqs());
        assertEquals("v9", new String(client.preservedRecords().getFirst().value(), StandardCharsets.UTF_8));
    }

    @Test
    void aNoticeBelowTheRecordsSeqKeepsIt() throws Exception {
        put(KEY, "v", 5, true);
        snapshotDone(new SnapshotCoverage.Entry(KEY, 4));
        assertEquals(List.of(5L), preservedSeqs());
    }

    @Test
    void aNoticeAtTheRecordsSeqReleasesIt() throws Exception {
        put(KEY, "v", 5, true);
        snapshotDone(new SnapshotCoverage.Entry(KEY, 5));
        assertEquals(List.of(), preservedSeqs());
    }

    @Test
    void aNoticeAboveTheRecordsSeqReleasesIt() throws Exception {
        put(KEY, "v", 5, true);
        snapshotDone(new SnapshotCoverage.Entry(KEY, 6));
        assertEquals(List.of(), preservedSeqs());
    }

    @Test
    void aNoticeForAnotherKeyReleasesNothing() throws Exception {
        put(KEY, "v", 5, true);
        snapshotDone(new SnapshotCoverage.Entry(OTHER_KEY, 9));
        assertEquals(List.of(5L), preservedSeqs());
    }

    // ---- no write retry across a switch restart (FarReachClient.mayRetryWrite; the spec's ClientRetry,
    // refuted variant MCFarReach_RetryAcrossCrash)

    /** A client that retries writes, with one write sent and no reply; returns where its outcome lands. */
    private List<KvResult> pendingWriteOfARetryingClient() {
        client = new FarReachClient(ctx, new ClientConfig(List.of(SERVER), 5_000_000L, 5, true, 40000), null);
        List<KvResult> outcome = new ArrayList<>();
        ctx.sent.clear();
        client.put(KEY, "v".getBytes(StandardCharsets.UTF_8), outcome::add);
        assertEquals(1, ctx.sent.size(), "the write's first copy");
        return outcome;
    }

    /** Fires the client's earliest timer, as the clock reaching it would. */
    private void timeOut() {
        long timer = ctx.timers.firstKey();
        ctx.now = ctx.timers.remove(timer);
        assertTrue(client.onTimer(timer));
    }

    @Test
    void aTimedOutWriteIsSentAgainWithItsRequestId() throws Exception {
        List<KvResult> outcome = pendingWriteOfARetryingClient();
        long reqId = InnetPacket.decode(ctx.sent.getLast()).message().reqId();
        ctx.sent.clear();
        timeOut();
        assertEquals(1, ctx.sent.size(), "a retry");
        assertEquals(reqId, InnetPacket.decode(ctx.sent.getLast()).message().reqId(), "the switch knows it by its id");
        assertTrue(outcome.isEmpty());
    }

    @Test
    void aWriteIsNotRetriedAfterTheSwitchRestartedAndEndsUnknown() throws Exception {
        List<KvResult> outcome = pendingWriteOfARetryingClient();
        // the recovering controller's collection round: the switch that numbered the write is gone
        InnetMessage request = new InnetMessage(KvOp.PRESERVED_REQUEST, 0, 0, 7, new byte[InnetMessage.KEY_BYTES], 0,
                new byte[0], new byte[0]);
        UdpFrame frame = new UdpFrame(0, 0, 0x0a000000 | CONTROLLER, 0x0a000000 | CLIENT, KvOp.CONTROL_PORT,
                KvOp.CONTROL_PORT, request.encode());
        assertTrue(client.onPacket(frame.encode()));
        ctx.sent.clear();
        timeOut();
        assertTrue(ctx.sent.isEmpty(), "a retry the restarted switch would number afresh was sent");
        assertEquals(1, outcome.size());
        assertEquals(KvResult.Outcome.TIMED_OUT, outcome.get(0).outcome());
    }
}
