package dev.innet.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Round trips and garbage: properties the vectors cannot enumerate. */
class CodecPropertiesTest {

    @Test
    void randomMessagesRoundTrip() throws WireException {
        SplittableRandom random = new SplittableRandom(20261122);
        for (int i = 0; i < 2_000; i++) {
            byte[] key = new byte[16];
            random.nextBytes(key);
            byte[] ext = new byte[4 * random.nextInt(17)];
            random.nextBytes(ext);
            byte[] value = new byte[random.nextInt(InnetMessage.MAX_VALUE_BYTES + 1)];
            random.nextBytes(value);
            InnetMessage m = new InnetMessage(random.nextInt(256), random.nextInt(256), random.nextInt(256),
                    random.nextLong(1L << 32), key, random.nextLong(1L << 32), ext, value);
            assertEquals(m, InnetMessage.decode(m.encode()));
            UdpFrame f = new UdpFrame(RackAddressing.hostMac(2), RackAddressing.hostMac(1), RackAddressing.hostIp(1),
                    RackAddressing.hostIp(2), random.nextInt(65536), 5008, m.encode());
            assertEquals(f, UdpFrame.decode(f.encode()));
        }
    }

    @Test
    void garbageNeverThrowsAnythingButWireException() {
        // Every prefix and random corruption of a valid frame either decodes or fails with a named error:
        // a malformed packet must never crash a node with an unchecked exception.
        SplittableRandom random = new SplittableRandom(7);
        byte[] valid = new UdpFrame(RackAddressing.hostMac(2), RackAddressing.hostMac(1), RackAddressing.hostIp(1),
                RackAddressing.hostIp(2), 40000, 5008,
                InnetMessage.of(0x02, 1, InnetMessage.key("k"), 0, new byte[40]).encode()).encode();
        for (int i = 0; i < 20_000; i++) {
            byte[] b = java.util.Arrays.copyOf(valid, random.nextInt(valid.length + 8));
            for (int flips = random.nextInt(4); flips > 0 && b.length > 0; flips--) {
                b[random.nextInt(b.length)] = (byte) random.nextInt(256);
            }
            try {
                InnetMessage.decode(UdpFrame.decode(b).payload());
            } catch (WireException expected) {
                // named error: fine
            }
        }
    }

    @Test
    void encoderRefusesWhatDecoderWouldReject() {
        assertThrows(IllegalArgumentException.class,
                () -> InnetMessage.of(1, 1, new byte[15], 0, new byte[0]));
        assertThrows(IllegalArgumentException.class,
                () -> new InnetMessage(1, 0, 0, 1, new byte[16], 0, new byte[6], new byte[0]));
        assertThrows(IllegalArgumentException.class,
                () -> InnetMessage.of(1, 1, new byte[16], 0, new byte[InnetMessage.MAX_VALUE_BYTES + 1]));
        assertThrows(IllegalArgumentException.class,
                () -> InnetMessage.of(1, 1L << 32, new byte[16], 0, new byte[0]));
    }

    @Test
    void decodeOnlyCasesTheVectorsCannotHold() throws WireException {
        UdpFrame f = new UdpFrame(RackAddressing.hostMac(2), RackAddressing.hostMac(1), RackAddressing.hostIp(1),
                RackAddressing.hostIp(2), 40000, 5008, InnetMessage.of(0x01, 3, InnetMessage.key("p"), 0, new byte[0]).encode());
        byte[] bytes = f.encode();
        // Ethernet padding after the IPv4 total length is ignored.
        assertEquals(f, UdpFrame.decode(java.util.Arrays.copyOf(bytes, bytes.length + 14)));
        // A non-zero UDP checksum is accepted unverified (the format lets encoders write 0).
        byte[] withChecksum = bytes.clone();
        withChecksum[UdpFrame.ETHERNET_HEADER + UdpFrame.IPV4_HEADER + 6] = 0x12;
        withChecksum[UdpFrame.ETHERNET_HEADER + UdpFrame.IPV4_HEADER + 7] = 0x34;
        assertEquals(f, UdpFrame.decode(withChecksum));
        // A different TTL still decodes (the checksum is recomputed to keep the header valid).
        byte[] ttl = bytes.clone();
        ttl[UdpFrame.ETHERNET_HEADER + 8] = 3;
        ttl[UdpFrame.ETHERNET_HEADER + 10] = 0;
        ttl[UdpFrame.ETHERNET_HEADER + 11] = 0;
        int sum = Ipv4Checksum.compute(ttl, UdpFrame.ETHERNET_HEADER, UdpFrame.IPV4_HEADER);
        ttl[UdpFrame.ETHERNET_HEADER + 10] = (byte) (sum >>> 8);
        ttl[UdpFrame.ETHERNET_HEADER + 11] = (byte) sum;
        assertEquals(f, UdpFrame.decode(ttl));
    }
}
