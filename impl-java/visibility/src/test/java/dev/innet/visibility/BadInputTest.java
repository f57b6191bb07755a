package dev.innet.visibility;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.innet.kv.FakeContext;
import dev.innet.protocol.NodeCounters;
import dev.innet.sim.Node;
import dev.innet.visibility.datanode.DataNode;
import dev.innet.visibility.metadata.MetadataNode;
import dev.innet.visibility.wire.IndexRecord;
import dev.innet.visibility.wire.KeyHasher;
import dev.innet.visibility.wire.LogAddress;
import dev.innet.visibility.wire.SlotTimestamp;
import dev.innet.visibility.wire.VisExt;
import dev.innet.visibility.wire.VisFrames;
import dev.innet.visibility.wire.VisOp;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Malformed frames and requests are counted and dropped or refused, never thrown, and change nothing. */
class BadInputTest {
    static final RackRoles ROLES = new RackRoles(1, List.of(2), KeyHasher.CRC, 500_000);
    static final byte[] KEY = InnetMessage.key("k");

    static FakeContext started(Node node, int host) {
        FakeContext ctx = new FakeContext(host, Path.of("target"));
        node.onStart(ctx);
        ctx.sent.clear();
        return ctx;
    }

    static byte[] from(int host, int to, InnetMessage m) {
        return VisFrames.frame(host, VisOp.PORT, to, VisOp.PORT, m).encode();
    }

    static InnetMessage replyIn(FakeContext ctx) throws Exception {
        assertEquals(1, ctx.sent.size(), "one reply");
        return InnetPacket.decode(ctx.sent.remove(0)).message();
    }

    @Test
    void dataNodeDropsGarbageAndRefusesInconsistentRequests() throws Exception {
        DataNode dn = new DataNode(ROLES);
        FakeContext ctx = started(dn, 2);
        dn.onPacket(new byte[] {1, 2, 3});                                    // not a frame
        dn.onPacket(from(3, 2, InnetMessage.of(VisOp.WRITE, 1, KEY, 0, new byte[] {9}))); // no extension
        assertEquals(0, ctx.sent.size());
        assertEquals(2, dn.counter("malformed"));

        VisExt wrong = new VisExt((ROLES.hasher().extOf(KEY).index() + 2) % 65536, 0);
        dn.onPacket(from(3, 2, VisFrames.message(VisOp.WRITE, 0, 0, 1, KEY, 0, wrong, new byte[] {9})));
        assertEquals(VisOp.STATUS_BAD_REQUEST, replyIn(ctx).status());       // header disagrees with the key
        dn.onPacket(from(3, 2, VisFrames.message(VisOp.DATA_READ, 0, 0, 2, KEY, 0, ROLES.hasher().extOf(KEY),
                new byte[] {1, 2, 3})));
        assertEquals(VisOp.STATUS_BAD_REQUEST, replyIn(ctx).status());       // not a log address
        dn.onPacket(from(3, 2, VisFrames.message(VisOp.DATA_READ, 0, 0, 3, KEY, 0, ROLES.hasher().extOf(KEY),
                new LogAddress(2, 7).encode())));
        assertEquals(VisOp.STATUS_BAD_REQUEST, replyIn(ctx).status());       // no such entry
        assertEquals(0, dn.counter("writes"));
    }

    @Test
    void metadataNodeDropsMalformedUpdatesAndRecoveryRecords() throws Exception {
        MetadataNode mdn = new MetadataNode(ROLES, 16, 10_000, 20_000);
        FakeContext ctx = started(mdn, 1);
        VisExt ext = ROLES.hasher().extOf(KEY);
        mdn.onPacket(from(254, 1, VisFrames.message(VisOp.META_ASYNC, 0, 0, 1, KEY, 5, ext, new byte[] {1})));
        mdn.onPacket(from(2, 1, VisFrames.message(VisOp.REBUILD_ENTRIES, 0, 0, 1, KEY, 0, ext, new byte[] {1, 2})));
        mdn.onPacket(new byte[60]);
        assertEquals(0, ctx.sent.size());
        assertEquals(3, ((NodeCounters) mdn).counter("malformed"));
        mdn.onPacket(from(3, 1, VisFrames.message(VisOp.META_UPDATE, 0, 0, 2, KEY, 5, ext, new byte[] {1})));
        assertEquals(VisOp.STATUS_BAD_REQUEST, replyIn(ctx).status());
        assertEquals(0, ((NodeCounters) mdn).counter("indexedKeys"));
    }

    @Test
    void packedRecordsOfTheWrongShapeDoNotDecode() {
        assertNull(IndexRecord.unpackOrNull(new byte[IndexRecord.BYTES + 1]));
        assertNull(SlotTimestamp.unpackOrNull(new byte[] {0, 1, 0, 1, 0, 0, 0, 1}));   // non-zero reserved bits
        assertNull(VisExt.decodeOrNull(new byte[4]));
        assertNull(LogAddress.decodeOrNull(new byte[LogAddress.BYTES]));                 // host 0
    }
}
