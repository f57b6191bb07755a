package dev.innet.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.wire.InnetMessage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsistentHashRingTest {
    private static byte[] key(int i) {
        return InnetMessage.key("user" + i);
    }

    @Test
    void everyServerGetsAFairShare() {
        ConsistentHashRing ring = new ConsistentHashRing(List.of(1, 2, 3, 4));
        Map<Integer, Integer> share = new HashMap<>();
        int keys = 40_000;
        for (int i = 0; i < keys; i++) {
            share.merge(ring.ownerOf(key(i)), 1, Integer::sum);
        }
        assertEquals(4, share.size());
        for (int n : share.values()) {
            // 64 virtual nodes keep each share within a factor ~1.5 of the mean
            assertTrue(n > keys / 4 / 1.6 && n < keys / 4 * 1.6, "unbalanced: " + share);
        }
    }

    @Test
    void addingAServerMovesOnlyItsShare() {
        ConsistentHashRing before = new ConsistentHashRing(List.of(1, 2, 3, 4));
        ConsistentHashRing after = new ConsistentHashRing(List.of(1, 2, 3, 4, 5));
        int moved = 0;
        int keys = 20_000;
        for (int i = 0; i < keys; i++) {
            int a = before.ownerOf(key(i));
            int b = after.ownerOf(key(i));
            if (a != b) {
                moved++;
                assertEquals(5, b, "a key moved between two old servers");
            }
        }
        assertTrue(moved > keys / 10 && moved < keys * 3 / 10, "moved " + moved);
    }

    @Test
    void ownerIsAFunctionOfTheServerSetOnly() {
        // Clients, servers and controller must agree; the order of the list must not matter.
        ConsistentHashRing a = new ConsistentHashRing(List.of(3, 1, 2));
        ConsistentHashRing b = new ConsistentHashRing(List.of(1, 2, 3));
        for (int i = 0; i < 5_000; i++) {
            assertEquals(a.ownerOf(key(i)), b.ownerOf(key(i)));
        }
    }
}
