package dev.innet.farreach.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.wire.SnapshotCoverage;
import dev.innet.kv.FakeContext;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.client.ClientConfig;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.UdpFrame;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Record preservation (§3.4), one message at a time: which switch-answered writes a client keeps, and
 * the release rule: a preserved record is dropped only by a SNAPSHOT_DONE entry whose seq covers it
 * (is at least its seq). Each assertion fails on a one-line change to the rule (docs/farreach.md,
 * "Rules and the tests that pin them").
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
}
