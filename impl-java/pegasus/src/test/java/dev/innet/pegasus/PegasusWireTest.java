package dev.innet.pegasus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.innet.pegasus.server.ClientTable;
import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.rack.RackRuns;
import java.nio.file.Files;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The Pegasus extension's bytes (docs/pegasus.md "Wire format", the same layout p4/tests/pegasus.stf's
 * generator writes), and bad input: dropped and counted, never thrown.
 */
class PegasusWireTest {
    @Test
    void theExtensionHasTheDocumentedLayout() throws Exception {
        PegasusExt e = new PegasusExt(0x8000_0005L, 0x1234, 3, PegasusExt.FLAG_DETECTOR);
        byte[] bytes = e.encode();
        assertEquals("8000000512340301", HexFormat.of().formatHex(bytes));
        assertEquals(e, PegasusExt.decode(bytes));
        assertEquals(2, e.serverIndex());
    }

    /**
     * The shared vectors conformance/vectors/pegasus.vec (the Java and Go codecs check their header
     * bytes as for every vector; here their extensions are decoded with the Pegasus codec).
     */
    @Test
    void theSharedVectorsExtensionsDecodeToTheDocumentedFields() throws Exception {
        Map<String, PegasusExt> expected = Map.of(
                "pegasus_read_request", PegasusExt.NONE,
                "pegasus_write_to_detector", new PegasusExt(0b1010, 0, 3, PegasusExt.FLAG_DETECTOR),
                "pegasus_write_reply", new PegasusExt(0, 300, 3, 0),
                "pegasus_unvouched_reply", new PegasusExt(0, 5, 0, 0));
        Map<String, PegasusExt> decoded = new TreeMap<>();
        String name = null;
        for (String line : Files.readAllLines(RackRuns.root().resolve("conformance/vectors/pegasus.vec"))) {
            if (line.startsWith("[")) {
                name = line.substring(1, line.indexOf(']'));
            } else if (line.startsWith("ext =")) {
                byte[] ext = HexFormat.of().parseHex(line.substring("ext =".length()).replace(" ", ""));
                decoded.put(name, PegasusExt.decode(ext));
                assertArrayEquals(ext, decoded.get(name).encode(), name);
            }
        }
        assertEquals(new TreeMap<>(expected), decoded);
    }

    @Test
    void aWrongExtensionLengthIsRejected() {
        assertThrows(PegasusExt.BadExtension.class, () -> PegasusExt.decode(new byte[4]));
        assertThrows(IllegalArgumentException.class, () -> new PegasusExt(0, 0x10000, 0, 0));
    }

    @Test
    void malformedFramesAndMessagesWithoutTheExtensionAreDroppedAndCounted() {
        AtomicInteger drops = new AtomicInteger();
        byte[] key = InnetMessage.key("k");
        InnetMessage plain = InnetMessage.of(PegasusOp.READ, 1, key, 0, new byte[0]); // extlen 0
        UdpFrame f = new UdpFrame(RackAddressing.hostMac(2), RackAddressing.hostMac(1), RackAddressing.hostIp(1),
                RackAddressing.hostIp(2), 40000, PegasusOp.PORT, plain.encode());
        assertNull(PegasusPacket.decodeOrDrop(f.encode(), x -> true, drops::incrementAndGet));
        assertNull(PegasusPacket.decodeOrDrop(new byte[] {1, 2, 3}, x -> true, drops::incrementAndGet));
        assertEquals(2, drops.get());
        InnetMessage good = PegasusPacket.message(PegasusOp.READ, 0, 0, 1, key, 0, PegasusExt.NONE, new byte[0]);
        UdpFrame g = new UdpFrame(f.dstMac(), f.srcMac(), f.srcIp(), f.dstIp(), 40000, PegasusOp.PORT, good.encode());
        assertEquals(PegasusExt.NONE, PegasusPacket.decodeOrDrop(g.encode(), x -> true, drops::incrementAndGet).ext());
    }

    @Test
    void clientTableEntriesRoundTripAndPartialEntriesAreRejected() {
        var e = new ClientTable.Entry(RackAddressing.hostIp(7), 40010, 0x0100_0002L, InnetMessage.key("k"), 42);
        List<ClientTable.Entry> back = ClientTable.decode(ClientTable.encode(List.of(e, e)));
        assertEquals(2, back.size());
        assertEquals(e.reqId(), back.get(1).reqId());
        assertArrayEquals(e.key(), back.get(0).key());
        assertThrows(IllegalArgumentException.class, () -> ClientTable.decode(new byte[ClientTable.ENTRY_BYTES - 1]));
    }
}
