package dev.innet.p4sim.ports;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortFaultsTest {
    private static List<long[]> plans(PortFaults f, int port, int frames) {
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < frames; i++) {
            out.add(f.plan(port));
        }
        return out;
    }

    @Test
    void aPortWithoutFaultsSendsEveryFrameAtOnceAndOnce() {
        PortFaults f = new PortFaults(1, Set.of(1, 2));
        assertFalse(f.any());
        assertArrayEquals(new long[] {0}, f.plan(1));
    }

    @Test
    void delayDuplicationAndReorderingFollowTheSettingsAndAreSeeded() {
        PortFaults f = new PortFaults(7, Set.of(1, 2));
        f.execute("1 delay_us=100 dup=30 reorder=20 hold_us=5000");
        assertTrue(f.any());
        List<long[]> a = plans(f, 1, 2000);
        int dups = 0;
        int held = 0;
        for (long[] p : a) {
            dups += p.length == 2 ? 1 : 0;
            assertTrue(p[0] == 100_000 || p[0] == 5_100_000, "delay or delay + hold, got " + p[0]);
            held += p[0] == 5_100_000 ? 1 : 0;
        }
        // 30 % and 20 % of 2000 frames, give or take a few standard deviations
        assertTrue(dups > 480 && dups < 720, "duplicates: " + dups);
        assertTrue(held > 310 && held < 490, "held back: " + held);
        // the other port is untouched
        assertArrayEquals(new long[] {0}, f.plan(2));
        // same seed, same settings, same frames: same decisions
        PortFaults g = new PortFaults(7, Set.of(1, 2));
        g.execute("1 delay_us=100 dup=30 reorder=20 hold_us=5000");
        List<long[]> b = plans(g, 1, 2000);
        for (int i = 0; i < a.size(); i++) {
            assertArrayEquals(a.get(i), b.get(i), "frame " + i);
        }
        // another seed decides differently
        PortFaults h = new PortFaults(8, Set.of(1, 2));
        h.execute("1 delay_us=100 dup=30 reorder=20 hold_us=5000");
        List<long[]> c = plans(h, 1, 2000);
        boolean differs = false;
        for (int i = 0; i < a.size(); i++) {
            differs |= a.get(i).length != c.get(i).length || a.get(i)[0] != c.get(i)[0];
        }
        assertTrue(differs);
    }

    @Test
    void clearAllRemovesEveryFaultAndShowListsThem() {
        PortFaults f = new PortFaults(1, Set.of(1, 2, 64));
        f.execute("all delay_us=50");
        assertEquals(List.of("port 1 delay_us=50 dup=0 reorder=0 hold_us=2000", "port 2 delay_us=50 dup=0 reorder=0 hold_us=2000",
                "port 64 delay_us=50 dup=0 reorder=0 hold_us=2000"), f.execute("show"));
        f.execute("2 clear");
        assertEquals(2, f.execute("show").size());
        f.execute("all clear");
        assertFalse(f.any());
        assertEquals(List.of(), f.execute("show"));
    }

    @Test
    void badInputIsRefusedNamingIt() {
        PortFaults f = new PortFaults(1, Set.of(1));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> f.execute("9 dup=5")).getMessage().contains("port 9"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> f.execute("1 dup=101")).getMessage().contains("dup=101"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> f.execute("1 jitter=3")).getMessage().contains("jitter"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> f.execute("1 delay_us=x")).getMessage().contains("not a number"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> f.execute("1")).getMessage().contains("usage"));
        assertFalse(f.any());
    }
}
