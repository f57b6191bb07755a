package dev.innet.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Runs every shared vector through the Java codec: decode equals the fields, encode equals the bytes. */
class WireVectorTest {

    @TestFactory
    Stream<DynamicTest> everyVector() throws IOException {
        return WireVector.loadAll().stream().map(v -> DynamicTest.dynamicTest(v.toString(), () -> check(v)));
    }

    @Test
    void vectorSetCoversEveryErrorName() throws IOException {
        // A vector set that does not exercise an error name cannot show that the codecs agree on it.
        List<String> seen = WireVector.loadAll().stream().map(WireVector::expectedError).toList();
        for (WireError e : WireError.values()) {
            assertTrue(seen.contains(e.name()), "no vector expects " + e);
        }
    }

    private static void check(WireVector v) throws WireException {
        switch (v.layer()) {
            case "app" -> checkApp(v);
            case "frame" -> checkFrame(v);
            default -> fail(v + ": unknown layer " + v.layer());
        }
    }

    private static void checkApp(WireVector v) throws WireException {
        if (v.expectedError() != null) {
            WireException e = assertThrows(WireException.class, () -> InnetMessage.decode(v.bytes()), v.toString());
            assertEquals(v.expectedError(), e.error().name(), v + ": " + e.getMessage());
            return;
        }
        InnetMessage decoded = InnetMessage.decode(v.bytes());
        InnetMessage expected = expectedMessage(v);
        assertEquals(expected, decoded, v.toString());
        assertArrayEquals(v.bytes(), expected.encode(), v + ": encode");
    }

    private static void checkFrame(WireVector v) throws WireException {
        if (v.expectedError() != null) {
            WireException e = assertThrows(WireException.class, () -> InnetPacket.decode(v.bytes()), v.toString());
            assertEquals(v.expectedError(), e.error().name(), v + ": " + e.getMessage());
            return;
        }
        UdpFrame frame = UdpFrame.decode(v.bytes());
        assertEquals(Long.parseLong(v.field("eth_dst"), 16), frame.dstMac(), v + ": eth_dst");
        assertEquals(Long.parseLong(v.field("eth_src"), 16), frame.srcMac(), v + ": eth_src");
        assertEquals(RackAddressing.parseIp(v.field("ip_src")), frame.srcIp(), v + ": ip_src");
        assertEquals(RackAddressing.parseIp(v.field("ip_dst")), frame.dstIp(), v + ": ip_dst");
        assertEquals(v.number("udp_src"), frame.srcPort(), v + ": udp_src");
        assertEquals(v.number("udp_dst"), frame.dstPort(), v + ": udp_dst");
        InnetMessage expected = expectedMessage(v);
        assertEquals(expected, InnetMessage.decode(frame.payload()), v.toString());
        UdpFrame rebuilt = new UdpFrame(frame.dstMac(), frame.srcMac(), frame.srcIp(), frame.dstIp(), frame.srcPort(),
                frame.dstPort(), expected.encode());
        assertArrayEquals(v.bytes(), rebuilt.encode(), v + ": encode");
    }

    private static InnetMessage expectedMessage(WireVector v) {
        return new InnetMessage((int) v.number("op"), (int) v.number("flags"), (int) v.number("status"),
                v.number("req_id"), v.hexBytes("key"), v.number("seq"), v.hexBytes("ext"), v.hexBytes("value"));
    }
}
