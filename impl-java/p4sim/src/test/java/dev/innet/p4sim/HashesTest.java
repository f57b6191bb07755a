package dev.innet.p4sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.innet.p4sim.runtime.Hashes;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The hash algorithms against their published check values. */
class HashesTest {
    private static final byte[] CHECK = "123456789".getBytes(StandardCharsets.US_ASCII);

    @Test
    void crcCheckValues() {
        assertEquals(0xCBF43926L, Hashes.crc32(CHECK, CHECK.length));
        assertEquals(0xBB3DL, Hashes.crc16(CHECK, CHECK.length));
    }

    @Test
    void onesComplementChecksumOfAnIpv4Header() {
        // a classic IPv4 header whose checksum field (0xb861) is zeroed for computation
        byte[] h = TestPrograms.hex("450000730000400040110000c0a80001c0a800c7");
        assertEquals(0xB861L, Hashes.csum16(h, h.length));
        // odd lengths are padded with a zero byte
        assertEquals(Hashes.csum16(new byte[] {1, 2, 3, 0}, 4), Hashes.csum16(new byte[] {1, 2, 3}, 3));
    }

    @Test
    void xorAndIdentity() {
        assertEquals(0x0102 ^ 0x0304 ^ 0x0500, Hashes.xor16(new byte[] {1, 2, 3, 4, 5}, 5));
        // bmv2's identity (calculations.cpp) takes the first 8 bytes of a longer input
        assertEquals(0x0102030405060708L, Hashes.identity(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9}, 9));
        assertEquals(0x010203L, Hashes.identity(new byte[] {1, 2, 3}, 3));
    }
}
