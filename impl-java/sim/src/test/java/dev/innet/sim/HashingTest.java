package dev.innet.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class HashingTest {
    @Test
    void fnv1a64MatchesThePublishedTestVectors() {
        // FNV-1a 64 of "" is the offset basis; of "a" and "foobar" as listed with the reference algorithm.
        assertEquals(0xcbf29ce484222325L, Hashing.fnv1a64(""));
        assertEquals(0xaf63dc4c8601ec8cL, Hashing.fnv1a64("a"));
        assertEquals(0x85944171f73967e8L, Hashing.fnv1a64("foobar"));
    }

    @Test
    void theLongFormHashesItsLittleEndianBytes() {
        long v = 0x0123456789abcdefL;
        byte[] le = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
        assertEquals(Hashing.fnv1a64(le), Hashing.fnv1a64(v));
    }

    @Test
    void splitMix64IsTheReferenceFinaliser() {
        // first output of splitmix64 seeded with 0 is mix(0x9e3779b97f4a7c15)
        assertEquals(0xe220a8397b1dcdafL, Hashing.splitMix64(0x9e3779b97f4a7c15L));
    }
}
