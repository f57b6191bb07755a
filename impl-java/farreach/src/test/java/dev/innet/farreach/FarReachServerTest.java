package dev.innet.farreach;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.server.FarReachServer;
import dev.innet.kv.ConsistentHashRing;
import dev.innet.kv.KvOp;
import dev.innet.kv.FakeContext;
import dev.innet.kv.KvStatus;
import dev.innet.kv.server.ServerConfig;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The FarReach server's reply rules (docs/wire-format.md §3), one request at a time: the family's
 * common operations and FarReach's record embedding and eviction stores.
 */
class FarReachServerTest {
    private static final int CLIENT = 10;
    private static final int SERVER = 1;
    private static final int OTHER_SERVER = 2;
    private static final int CONTROLLER = 254;
    private static final ServerConfig CONFIG = new ServerConfig(List.of(SERVER, OTHER_SERVER), CONTROLLER, 128, 4,
            1_000_000_000L);
    private static final ConsistentHashRing RING = new ConsistentHashRing(CONFIG.serverHosts());

    @TempDir
    Path dir;
    private FakeContext ctx;
    private FarReachServer server;
    private long reqId;

    @BeforeEach
    void start() {
        startWith(new FarReachServer(CONFIG, RecordStoreOpener.memory()));
    }

    /** Starts {@code s}: the first incarnation, or a restart that keeps the durable state of the one before. */
    private void startWith(FarReachServer s) {
        ctx = ctx == null ? new FakeContext(SERVER, dir) : ctx.restarted();
        server = s;
        server.onStart(ctx);
    }

    /** A key this server owns (the ring decides; tests must not assume). */
    private static byte[] ownedKey(int n) {
        for (int i = 0;; i++) {
            byte[] k = InnetMessage.key("k" + n + "-" + i);
            if (RING.ownerOf(k) == SERVER) {
                return k;
            }
        }
    }

    private static byte[] foreignKey() {
        for (int i = 0;; i++) {
            byte[] k = InnetMessage.key("f" + i);
            if (RING.ownerOf(k) == OTHER_SERVER) {
                return k;
            }
        }
    }

    private InnetMessage send(int op, int flags, byte[] key, long seq, String value) throws WireException {
        return sendTo(KvOp.KV_PORT, new InnetMessage(op, flags, 0, ++reqId, key, seq, new byte[0],
                value.getBytes(StandardCharsets.UTF_8)));
    }

    private InnetMessage sendTo(int port, InnetMessage msg) throws WireException {
        ctx.sent.clear();
        UdpFrame frame = new UdpFrame(RackAddressing.hostMac(SERVER), RackAddressing.hostMac(CLIENT),
                RackAddressing.hostIp(CLIENT), RackAddressing.hostIp(SERVER), 40000, port, msg.encode());
        server.onPacket(frame.encode());
        assertEquals(1, ctx.sent.size(), "exactly one reply");
        UdpFrame reply = UdpFrame.decode(ctx.sent.get(0));
        assertEquals(RackAddressing.hostIp(CLIENT), reply.dstIp());
        assertEquals(40000, reply.dstPort());
        InnetMessage r = InnetMessage.decode(reply.payload());
        assertEquals(msg.reqId(), r.reqId(), "request id echoed");
        return r;
    }

    private static String text(InnetMessage m) {
        return new String(m.value(), StandardCharsets.UTF_8);
    }

    @Test
    void getOfMissingKeyIsNotFound() throws Exception {
        InnetMessage r = send(KvOp.GET, 0, ownedKey(1), 0, "");
        assertEquals(KvOp.GET_REPLY, r.op());
        assertEquals(KvStatus.NOT_FOUND, r.status());
    }

    @Test
    void putThenGetAndDelete() throws Exception {
        byte[] k = ownedKey(1);
        assertEquals(KvOp.PUT_REPLY, send(KvOp.PUT, 0, k, 0, "v1").op());
        InnetMessage r = send(KvOp.GET, 0, k, 0, "");
        assertEquals(KvStatus.OK, r.status());
        assertEquals("v1", text(r));
        assertEquals(KvOp.DEL_REPLY, send(KvOp.DEL, 0, k, 0, "").op());
        assertEquals(KvStatus.NOT_FOUND, send(KvOp.GET, 0, k, 0, "").status());
    }

    @Test
    void numberedWritesKeepTheHigherSequenceNumber() throws Exception {
        byte[] k = ownedKey(2);
        send(KvOp.PUT_SEQ, 0, k, 7, "new");
        InnetMessage ack = send(KvOp.PUT_SEQ, 0, k, 5, "old"); // reordered older write: acknowledged, not applied
        assertEquals(KvOp.PUT_REPLY, ack.op());
        assertEquals(5, ack.seq());
        InnetMessage r = send(KvOp.GET, 0, k, 0, "");
        assertEquals("new", text(r));
        assertEquals(7, r.seq());
        assertEquals(1, server.stats().staleWritesIgnored);
    }

    @Test
    void seededBugIgnoringSequenceNumbersGoesBackInTime() throws Exception {
        startWith(new SeededBugs.ServerIgnoringSequenceNumbers(CONFIG, RecordStoreOpener.memory()));
        byte[] k = ownedKey(2);
        send(KvOp.PUT_SEQ, 0, k, 7, "new");
        send(KvOp.PUT_SEQ, 0, k, 5, "old");
        assertEquals("old", text(send(KvOp.GET, 0, k, 0, "")));
    }

    @Test
    void embeddedRecordIsResolvedBySequenceNumber() throws Exception {
        byte[] k = ownedKey(3);
        send(KvOp.PUT_SEQ, 0, k, 4, "server");
        // the switch's record is newer: the server adopts it and answers with it
        InnetMessage r = send(KvOp.GET_EMBED, 0, k, 9, "switch");
        assertEquals(KvOp.GET_REPLY, r.op());
        assertEquals("switch", text(r));
        // an embedded record older than the server's is ignored
        InnetMessage r2 = send(KvOp.GET_EMBED, 0, k, 2, "ancient");
        assertEquals("switch", text(r2));
        // an embedded tombstone deletes
        InnetMessage r3 = send(KvOp.GET_EMBED, KvOp.FLAG_DELETED, k, 12, "");
        assertEquals(KvStatus.NOT_FOUND, r3.status());
    }

    @Test
    void conservativeReadCarriesSequenceAndTombstoneFlag() throws Exception {
        byte[] k = ownedKey(4);
        send(KvOp.PUT_SEQ, 0, k, 3, "x");
        InnetMessage r = send(KvOp.GET_FOR_CACHE, 0, k, 0, "");
        assertEquals(KvOp.GET_FOR_CACHE_REPLY, r.op());
        assertEquals(3, r.seq());
        send(KvOp.DEL_SEQ, 0, k, 4, "");
        InnetMessage d = send(KvOp.GET_FOR_CACHE, 0, k, 0, "");
        assertEquals(KvOp.FLAG_DELETED, d.flags());
        assertEquals(4, d.seq());
    }

    @Test
    void badRequestsGetClearStatusesAndStoreNothing() throws Exception {
        byte[] foreign = foreignKey();
        assertEquals(KvStatus.WRONG_PARTITION, send(KvOp.PUT, 0, foreign, 0, "x").status());
        assertEquals(KvStatus.BAD_OP, send(0x7e, 0, ownedKey(5), 0, "").status());
        assertEquals(KvStatus.BAD_REQUEST, send(KvOp.GET_REPLY, 0, ownedKey(5), 0, "").status());
        byte[] k = ownedKey(6);
        assertEquals(KvStatus.VALUE_TOO_LARGE, send(KvOp.PUT, 0, k, 0, "y".repeat(129)).status());
        assertTrue(server.storedRecord(k).isEmpty(), "an oversize value must not be stored");
        assertTrue(server.storedRecord(foreign).isEmpty());
    }

    @Test
    void malformedFramesAreCountedAndUnanswered() {
        ctx.sent.clear();
        server.onPacket(new byte[] {1, 2, 3});
        byte[] good = new UdpFrame(RackAddressing.hostMac(SERVER), RackAddressing.hostMac(CLIENT),
                RackAddressing.hostIp(CLIENT), RackAddressing.hostIp(SERVER), 40000, KvOp.KV_PORT,
                InnetMessage.of(KvOp.GET, 1, ownedKey(1), 0, new byte[0]).encode()).encode();
        byte[] badMagic = good.clone();
        badMagic[UdpFrame.HEADERS] = 0x00;
        server.onPacket(badMagic);
        assertEquals(0, ctx.sent.size());
        assertEquals(2, server.stats().malformed);
    }

    @Test
    void hotKeyIsReportedOncePerPeriodWithItsRecord() throws Exception {
        byte[] k = ownedKey(7);
        send(KvOp.PUT_SEQ, 0, k, 5, "hotvalue");
        UdpFrame frame = new UdpFrame(RackAddressing.hostMac(SERVER), RackAddressing.hostMac(CLIENT),
                RackAddressing.hostIp(CLIENT), RackAddressing.hostIp(SERVER), 40000, KvOp.KV_PORT,
                new InnetMessage(KvOp.GET, KvOp.FLAG_HOT, 0, 1, k, 0, new byte[0], new byte[0]).encode());
        ctx.sent.clear();
        server.onPacket(frame.encode());
        server.onPacket(frame.encode());
        long reports = ctx.sent.stream().map(FarReachServerTest::decodeQuietly)
                .filter(f -> f.dstPort() == KvOp.CONTROL_PORT).count();
        assertEquals(1, reports);
        UdpFrame report = ctx.sent.stream().map(FarReachServerTest::decodeQuietly)
                .filter(f -> f.dstPort() == KvOp.CONTROL_PORT).findFirst().orElseThrow();
        assertEquals(RackAddressing.hostIp(CONTROLLER), report.dstIp());
        InnetMessage decoded = InnetMessage.decode(report.payload());
        assertArrayEquals(k, decoded.key());
        assertEquals(KvOp.HOT_REPORT, decoded.op());
        assertEquals(5, decoded.seq());
        assertEquals("hotvalue", text(decoded));
    }

    @Test
    void evictedTombstoneWithoutSequenceNumberNeverOverwrites() throws Exception {
        // The switch admitted a key the server lacked as a tombstone with seq 0; a write then reached the
        // server; evicting the stale tombstone must not delete that write (found by the rack campaigns).
        byte[] k = ownedKey(10);
        send(KvOp.PUT_SEQ, 0, k, 3, "written");
        sendTo(KvOp.CONTROL_PORT, new InnetMessage(KvOp.EVICT_STORE, KvOp.FLAG_DELETED, 0, 98, k, 0, new byte[0],
                new byte[0]));
        assertEquals("written", text(send(KvOp.GET, 0, k, 0, "")));
    }

    @Test
    void evictedRecordIsStoredIfNewerAndAcknowledged() throws Exception {
        byte[] k = ownedKey(8);
        send(KvOp.PUT_SEQ, 0, k, 2, "server");
        InnetMessage ack = sendTo(KvOp.CONTROL_PORT, new InnetMessage(KvOp.EVICT_STORE, 0, 0, 99, k, 6, new byte[0],
                "cached".getBytes(StandardCharsets.UTF_8)));
        assertEquals(KvOp.EVICT_STORE_REPLY, ack.op());
        assertEquals("cached", text(send(KvOp.GET, 0, k, 0, "")));
    }

    /** Sends {@code msg} to the client port and checks that nothing at all comes back. */
    private void assertUnanswered(InnetMessage msg, String why) {
        ctx.sent.clear();
        server.onPacket(new UdpFrame(RackAddressing.hostMac(SERVER), RackAddressing.hostMac(CLIENT),
                RackAddressing.hostIp(CLIENT), RackAddressing.hostIp(SERVER), 40000, KvOp.KV_PORT, msg.encode()).encode());
        assertEquals(0, ctx.sent.size(), why);
    }

    private InnetMessage fence(long base) throws WireException {
        return sendTo(KvOp.CONTROL_PORT, new InnetMessage(KvOp.SEQ_FENCE, 0, 0, ++reqId,
                new byte[InnetMessage.KEY_BYTES], base, new byte[0], new byte[0]));
    }

    @Test
    void fencedServerRefusesOlderIncarnationsWritesWithoutAcknowledgingThem() throws Exception {
        byte[] k = ownedKey(11);
        send(KvOp.PUT_SEQ, 0, k, 5, "before");
        InnetMessage ack = fence(1L << 24);
        assertEquals(KvOp.SEQ_FENCE_REPLY, ack.op());
        assertEquals(1L << 24, ack.seq());

        // a write the crashed switch numbered (6, newer than what is held) arrives after the fence
        assertUnanswered(new InnetMessage(KvOp.PUT_SEQ, 0, 0, ++reqId, k, 6, new byte[0],
                "late".getBytes(StandardCharsets.UTF_8)), "a refused write is not acknowledged: an ack would lose it");
        assertEquals(1, server.stats().fencedWritesRefused);

        // what the server holds reads as the fence, and so does a key it never stored
        InnetMessage r = send(KvOp.GET_FOR_CACHE, 0, k, 0, "");
        assertEquals("before", text(r));
        assertEquals(1L << 24, r.seq());
        InnetMessage missing = send(KvOp.GET_FOR_CACHE, 0, ownedKey(12), 0, "");
        assertEquals(KvStatus.NOT_FOUND, missing.status());
        assertEquals(1L << 24, missing.seq());

        // the new incarnation's writes (above the base) are taken as before
        assertEquals(KvOp.PUT_REPLY, send(KvOp.PUT_SEQ, 0, k, (1L << 24) + 1, "after").op());
        assertEquals("after", text(send(KvOp.GET, 0, k, 0, "")));
        assertEquals((1L << 24) + 1, send(KvOp.GET, 0, k, 0, "").seq());
    }

    @Test
    void fenceSurvivesARestartAndIsNeverLowered() throws Exception {
        RecordStoreOpener rocks = RecordStoreOpener.rocksdb();
        startWith(new FarReachServer(CONFIG, rocks));
        byte[] k = ownedKey(13);
        send(KvOp.PUT_SEQ, 0, k, 3, "v");
        fence(2L << 24);
        assertEquals(2L << 24, fence(1L << 24).seq(), "a duplicate of an older recovery's fence lowers nothing");

        startWith(new FarReachServer(CONFIG, rocks));
        assertEquals(2L << 24, server.fence());
        assertEquals(2L << 24, send(KvOp.GET, 0, k, 0, "").seq());
        assertUnanswered(new InnetMessage(KvOp.PUT_SEQ, 0, 0, ++reqId, k, (1L << 24) + 9, new byte[0],
                "old".getBytes(StandardCharsets.UTF_8)), "the restarted server still refuses writes below its fence");
        assertEquals("v", text(send(KvOp.GET, 0, k, 0, "")));
    }

    @Test
    void recoveryReplayAndEvictionsBelowTheFenceAreAcknowledgedButNotStored() throws Exception {
        byte[] k = ownedKey(14);
        send(KvOp.PUT_SEQ, 0, k, 4, "held");
        fence(1L << 24);
        InnetMessage ack = sendTo(KvOp.CONTROL_PORT, new InnetMessage(KvOp.EVICT_STORE, 0, 0, ++reqId, k, 7,
                new byte[0], "stale".getBytes(StandardCharsets.UTF_8)));
        assertEquals(KvOp.EVICT_STORE_REPLY, ack.op(), "the controller must not retry for ever");
        assertEquals("held", text(send(KvOp.GET, 0, k, 0, "")));
    }

    @Test
    void rocksdbServerKeepsAcknowledgedWritesAcrossRestart() throws Exception {
        RecordStoreOpener rocks = RecordStoreOpener.rocksdb();
        startWith(new FarReachServer(CONFIG, rocks));
        byte[] k = ownedKey(9);
        send(KvOp.PUT_SEQ, 0, k, 11, "durable");
        // crash: the node object is dropped without closing anything; restart on the same directory
        startWith(new FarReachServer(CONFIG, rocks));
        InnetMessage r = send(KvOp.GET, 0, k, 0, "");
        assertEquals("durable", text(r));
        assertEquals(11, r.seq());
    }

    private static UdpFrame decodeQuietly(byte[] b) {
        try {
            return UdpFrame.decode(b);
        } catch (WireException e) {
            throw new AssertionError(e);
        }
    }
}
