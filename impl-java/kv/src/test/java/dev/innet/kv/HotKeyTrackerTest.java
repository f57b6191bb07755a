package dev.innet.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.wire.InnetMessage;
import org.junit.jupiter.api.Test;

class HotKeyTrackerTest {
    @Test
    void reportsEachKeyOncePerPeriodWithinCapacity() {
        HotKeyTracker t = new HotKeyTracker(2);
        byte[] a = InnetMessage.key("a");
        byte[] b = InnetMessage.key("b");
        byte[] c = InnetMessage.key("c");
        assertTrue(t.observeHot(a));
        assertFalse(t.observeHot(a), "duplicate report");
        assertTrue(t.observeHot(b));
        assertFalse(t.observeHot(c), "over capacity");
        assertEquals(2, t.count(a));
        t.resetPeriod();
        assertTrue(t.observeHot(a));
        assertTrue(t.observeHot(c));
    }
}
