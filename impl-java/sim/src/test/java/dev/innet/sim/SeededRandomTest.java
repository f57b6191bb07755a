package dev.innet.sim;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SeededRandomTest {
    @Test
    void theSameSeedGivesTheSameStreamAndAnotherSeedAnother() {
        SeededRandom a = new SeededRandom(99);
        SeededRandom b = new SeededRandom(99);
        SeededRandom c = new SeededRandom(100);
        long[] first = new long[16];
        boolean differs = false;
        for (int i = 0; i < first.length; i++) {
            first[i] = a.nextLong();
            assertEquals(first[i], b.nextLong());
            differs |= first[i] != c.nextLong();
        }
        assertTrue(differs);
    }

    @Test
    void theOutputIsPinnedSoAJdkOrRefactoringCannotChangeReplays() {
        // Pinned values: every recorded seed's replay depends on them. Change only with a note in docs/simulator.md.
        SeededRandom r = new SeededRandom(0);
        assertEquals(0x99ec5f36cb75f2b4L, r.nextLong());
        assertEquals(0xbf6e1f784956452aL, r.nextLong());
        assertEquals(0x1a5f849d4933e6e0L, r.nextLong());
    }

    @Test
    void aForkDependsOnTheNameAndSeedNotOnDrawsAlreadyMade() {
        SeededRandom untouched = new SeededRandom(5);
        SeededRandom busy = new SeededRandom(5);
        for (int i = 0; i < 1000; i++) {
            busy.nextLong();
        }
        RandomSource x = untouched.fork("links");
        RandomSource y = busy.fork("links");
        RandomSource z = new SeededRandom(5).fork("timers");
        long fromX = x.nextLong();
        assertEquals(fromX, y.nextLong());
        assertNotEquals(fromX, z.nextLong());
    }

    @Test
    void forkingOneNameTwiceIsRefused() {
        SeededRandom r = new SeededRandom(1);
        r.fork("a");
        assertThrows(IllegalStateException.class, () -> r.fork("a"));
    }

    @Test
    void boundedDrawsStayInRangeAndCoverIt() {
        SeededRandom r = new SeededRandom(3);
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            long v = r.nextLong(7);
            assertTrue(v >= 0 && v < 7);
            seen.add(v);
            long w = r.nextLong(-5, 5);
            assertTrue(w >= -5 && w < 5);
            double d = r.nextDouble();
            assertTrue(d >= 0 && d < 1);
        }
        assertEquals(7, seen.size());
        int hits = 0;
        for (int i = 0; i < 10_000; i++) {
            hits += r.chance(0.3) ? 1 : 0;
        }
        assertTrue(hits > 2_700 && hits < 3_300, "chance(0.3) hit " + hits + " of 10000");
        assertThrows(IllegalArgumentException.class, () -> r.chance(1.5));
        assertThrows(IllegalArgumentException.class, () -> r.nextLong(0));
    }
}
