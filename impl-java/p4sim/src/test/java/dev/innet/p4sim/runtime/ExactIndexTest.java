package dev.innet.p4sim.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The open-addressing exact-match index against a HashMap: random puts, replacements, removals and
 * lookups over a small key space (many collisions and long clusters, growth, backward-shift deletion),
 * for one-, two- and three-word keys.
 */
class ExactIndexTest {
    @Test
    void behavesLikeAMap() {
        for (int words = 1; words <= 3; words++) {
            SplittableRandom r = new SplittableRandom(words);
            ExactIndex index = new ExactIndex(words);
            Map<List<Long>, TableEntry> model = new HashMap<>();
            for (int op = 0; op < 20_000; op++) {
                long[] key = new long[words];
                for (int j = 0; j < words; j++) {
                    key[j] = r.nextInt(j == 0 ? 300 : 2); // small space: keys come back often
                }
                List<Long> k = box(key);
                switch (r.nextInt(4)) {
                    case 0, 1 -> {
                        TableEntry e = entry(key);
                        assertSame(model.put(k, e), index.put(key.clone(), e), "put " + k);
                    }
                    case 2 -> assertSame(model.remove(k), index.remove(key), "remove " + k);
                    default -> assertSame(model.get(k), index.get(key), "get " + k);
                }
                assertEquals(model.size(), index.size());
            }
            for (Map.Entry<List<Long>, TableEntry> e : model.entrySet()) {
                assertSame(e.getValue(), index.get(unbox(e.getKey())), "after the run: " + e.getKey());
            }
            assertEquals(model.size(), index.values().size());
            index.clear();
            assertEquals(0, index.size());
            for (List<Long> k : model.keySet()) {
                assertNull(index.get(unbox(k)));
            }
        }
    }

    @Test
    void lookupReadsOnlyTheKeyWords() {
        ExactIndex index = new ExactIndex(1);
        TableEntry e = entry(new long[] {7});
        index.put(new long[] {7}, e);
        assertSame(e, index.get(new long[] {7, 99}), "a longer buffer: only the first word is the key");
    }

    private static TableEntry entry(long[] key) {
        return new TableEntry(key.clone(), new long[key.length], 0, 0, null, new long[0], 0);
    }

    private static List<Long> box(long[] a) {
        List<Long> l = new ArrayList<>();
        for (long x : a) {
            l.add(x);
        }
        return l;
    }

    private static long[] unbox(List<Long> l) {
        long[] a = new long[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }
}
