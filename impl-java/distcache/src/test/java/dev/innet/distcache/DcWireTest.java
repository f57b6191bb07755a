package dev.innet.distcache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.innet.distcache.controller.UpperPartition;
import dev.innet.distcache.wire.DcExt;
import dev.innet.distcache.wire.DcOp;
import dev.innet.wire.InnetMessage;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The DistCache extension byte for byte (p4/include/distcache_headers.p4) and the upper partition's hash. */
class DcWireTest {
    @Test
    void extensionRoundTripsInTheP4Layout() {
        DcExt e = new DcExt(DcOp.LAYER_LOWER, 101, 2, 101, 0x1234, 0xffff, 0x0100_0001L);
        byte[] bytes = e.encode();
        assertEquals("026502651234ffff01000001", HexFormat.of().formatHex(bytes));
        InnetMessage m = DcExt.message(DcOp.UPD, 0, 0, 7, InnetMessage.key("k"), 3, e, new byte[] {1, 2});
        InnetMessage back = assertDoesNotThrowDecode(m.encode());
        assertEquals(e, DcExt.of(back));
        assertEquals(12, back.ext().length);
        assertArrayEquals(new byte[] {1, 2}, back.value());
    }

    private static InnetMessage assertDoesNotThrowDecode(byte[] bytes) {
        try {
            return InnetMessage.decode(bytes);
        } catch (Exception ex) {
            throw new AssertionError(ex);
        }
    }

    /**
     * The shared vectors conformance/vectors/distcache.vec (the Java and Go codecs check their header
     * bytes as for every vector; here their extensions are decoded with DcExt).
     */
    @Test
    void theSharedVectorsExtensionsDecodeToTheDocumentedFields() throws Exception {
        java.util.Map<String, DcExt> expected = java.util.Map.of(
                "distcache_get_unrouted", DcExt.NONE,
                "distcache_get_routed_lower", DcExt.target(DcOp.LAYER_LOWER, 101, 0),
                "distcache_get_reply_from_switch", new DcExt(DcOp.LAYER_UPPER, 1, 1, 101, 300, 5, 0),
                "distcache_inv", DcExt.target(DcOp.LAYER_UPPER, 0, 0),
                "distcache_inv_ack", DcExt.target(DcOp.LAYER_UPPER, 2, 0),
                "distcache_fill", DcExt.target(DcOp.LAYER_LOWER, 102, 0x0100_0003L),
                "distcache_update_tombstone", DcExt.target(DcOp.LAYER_LOWER, 0, 0),
                "distcache_fetch", DcExt.target(DcOp.LAYER_LOWER, 102, 0x0100_0003L));
        java.util.Map<String, DcExt> decoded = new java.util.TreeMap<>();
        String name = null;
        for (String line : java.nio.file.Files.readAllLines(
                dev.innet.rack.RackRuns.root().resolve("conformance/vectors/distcache.vec"))) {
            if (line.startsWith("[")) {
                name = line.substring(1, line.indexOf(']'));
            } else if (line.startsWith("ext =")) {
                byte[] ext = HexFormat.of().parseHex(line.substring("ext =".length()).replace(" ", ""));
                InnetMessage carrier = new InnetMessage(1, 0, 0, 1, InnetMessage.key("k"), 0, ext, new byte[0]);
                decoded.put(name, DcExt.of(carrier));
                assertArrayEquals(ext, decoded.get(name).encode(), name);
            }
        }
        assertEquals(new java.util.TreeMap<>(expected), decoded);
    }

    @Test
    void aMessageWithoutTheExtensionIsNotDistCaches() {
        assertNull(DcExt.of(InnetMessage.of(1, 1, InnetMessage.key("k"), 0, new byte[0])));
    }

    @Test
    void outOfRangeFieldsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new DcExt(256, 0, 0, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new DcExt(0, 0, 0, 0, 0x10000, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new DcExt(0, 0, 0, 0, 0, 0, 1L << 32));
    }

    /** Same CRC as the STF generator's upper_bucket (zlib.crc32(key + salt) % 1024). */
    @Test
    void upperBucketsAreCrc32OfKeyAndSalt() {
        byte[] alpha = InnetMessage.key("alpha");
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(alpha);
        crc.update(new byte[] {0x25, 0x45, (byte) 0xF4, (byte) 0x91});
        assertEquals((int) (crc.getValue() % 1024), UpperPartition.bucket(alpha));
    }

    @Test
    void aFailedSpinesBucketsAreDealtOutAndComeBack() {
        UpperPartition p = new UpperPartition(2);
        assertEquals(1, p.ownerOf(0));
        assertEquals(2, p.ownerOf(1023));
        List<Integer> moved = p.reassign(1, List.of(2));
        assertEquals(512, moved.size());
        for (int b = 0; b < UpperPartition.BUCKETS; b++) {
            assertEquals(2, p.ownerOf(b));
        }
        assertEquals(512, p.restoreHome(1).size());
        assertEquals(1, p.ownerOf(0));
        UpperPartition alone = new UpperPartition(1);
        alone.reassign(1, List.of());
        assertEquals(0, alone.ownerOf(5), "no live spine: the layer caches nothing");
    }
}
