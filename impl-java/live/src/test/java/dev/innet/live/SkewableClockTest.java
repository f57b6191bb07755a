package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SkewableClockTest {
    @Test
    void aJumpMovesTheClockForwardAndAddsUp() {
        SkewableClock clock = new SkewableClock();
        long before = clock.nowNanos();
        assertEquals(1500, clock.jump(1500));
        long after = clock.nowNanos();
        assertTrue(after - before >= 1_500_000_000L, "jumped " + (after - before) + " ns");
        assertEquals(1750, clock.jump(250));
    }

    @Test
    void theClockNeverGoesBack() {
        SkewableClock clock = new SkewableClock();
        assertThrows(IllegalArgumentException.class, () -> clock.jump(-1));
        assertEquals(0, clock.jump(0));
    }
}
