package dev.innet.visibility.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.visibility.wire.IndexRecord;
import dev.innet.visibility.wire.LogAddress;
import dev.innet.visibility.wire.VisExt;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SkipListTest {
    /**
     * Random puts and gets against java.util.TreeMap as the model: every get, every put's old value, the size
     * and the in-order values agree after each operation, over keys that are hit again and again (replacements)
     * and keys never seen (misses).
     */
    @Test
    void agreesWithASortedMapOnRandomPutsAndGets() {
        for (long seed = 1; seed <= 5; seed++) {
            Random r = new Random(seed);
            SkipList<Integer, String> list = new SkipList<>();
            TreeMap<Integer, String> model = new TreeMap<>();
            for (int i = 0; i < 4_000; i++) {
                int key = r.nextInt(600) - 300;
                if (r.nextBoolean()) {
                    String value = "v" + i;
                    assertEquals(model.put(key, value), list.put(key, value), "seed " + seed + " put " + key);
                } else {
                    assertEquals(model.get(key), list.get(key), "seed " + seed + " get " + key);
                }
                assertEquals(model.size(), list.size());
            }
            assertEquals(new ArrayList<>(model.values()), list.values(), "seed " + seed + ": key order");
        }
    }

    @Test
    void anEmptyListHasNothingAndALargeOneGrowsLevelsTheSameWayEveryRun() {
        SkipList<Integer, Integer> empty = new SkipList<>();
        assertNull(empty.get(1));
        assertEquals(List.of(), empty.values());
        SkipList<Integer, Integer> a = new SkipList<>();
        SkipList<Integer, Integer> b = new SkipList<>();
        for (int i = 0; i < 20_000; i++) {
            a.put(i * 7 % 20_000, i);
            b.put(i * 7 % 20_000, i);
        }
        // 20,000 nodes at 1/4 per level: about log4(20,000) = 7 levels; one level would be a linked list
        assertTrue(a.levels() >= 5 && a.levels() <= SkipList.MAX_LEVEL, "levels " + a.levels());
        assertEquals(a.levels(), b.levels(), "fixed-seed draws: the same structure in every run");
        assertEquals(20_000, a.size());
        assertEquals(Integer.valueOf(20_000 - 1), a.get(20_000 - 7)); // written at i = 19,999 (19,999 * 7 % 20,000)
    }

    /** The metadata index orders keys as unsigned bytes (0x80 after 0x7f) and keeps only superseding updates. */
    @Test
    void theMetadataIndexKeepsKeysInUnsignedOrderAndAppliesOnlyNewerUpdates() {
        MetadataIndex index = new MetadataIndex();
        IndexRecord high = record(0x80, 5);
        IndexRecord low = record(0x7f, 3);
        assertTrue(index.applyIf(high, SkipListTest::newer));
        assertTrue(index.applyIf(low, SkipListTest::newer));
        assertEquals(false, index.applyIf(record(0x80, 4), SkipListTest::newer));
        assertEquals(List.of(low, high), index.records());
        assertEquals(high, index.get(key(0x80)));
        assertEquals(2, index.size());
    }

    private static boolean newer(IndexRecord update, IndexRecord held) {
        return update.ts() > held.ts();
    }

    private static byte[] key(int first) {
        byte[] k = new byte[16];
        k[0] = (byte) first;
        return k;
    }

    private static IndexRecord record(int first, long ts) {
        return new IndexRecord(key(first), ts, new VisExt(1, 2), new LogAddress(1, ts));
    }
}
