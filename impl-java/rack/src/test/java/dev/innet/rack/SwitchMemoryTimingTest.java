package dev.innet.rack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.runtime.MemoryAccesses;
import dev.innet.p4sim.v1model.P4Switch;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A protocol's switch timing must name exactly the memories its P4 program declares, and sums what a pass touched. */
class SwitchMemoryTimingTest {
    private static MemoryAccesses lakeMemories() {
        P4Switch sw = P4Sim.compile(RackRuns.root().resolve("p4/lake.p4"), List.of(RackRuns.root().resolve("p4"))).instantiate();
        return sw.memoryAccesses();
    }

    @Test
    void aPassCostsTheSumOfTheMemoriesItTouched() {
        MemoryAccesses m = lakeMemories();
        assertEquals(List.of("onchip", "dram"), m.memories());
        SwitchMemoryTiming timing = new SwitchMemoryTiming(m, Map.of("onchip", 100L, "dram", 900L));
        m.clear();
        assertEquals(0, timing.delayNanos(m));
        m.touch(m.idOf("onchip"));
        assertEquals(100, timing.delayNanos(m));
        m.touch(m.idOf("dram"));
        assertEquals(1000, timing.delayNanos(m));
    }

    @Test
    void aMisspeltMissingOrNegativeMemoryIsRefused() {
        MemoryAccesses m = lakeMemories();
        IllegalArgumentException misspelt = assertThrows(IllegalArgumentException.class,
                () -> new SwitchMemoryTiming(m, Map.of("onchip", 1L, "drm", 2L)));
        assertTrue(misspelt.getMessage().contains("[drm, onchip]") && misspelt.getMessage().contains("[dram, onchip]"),
                misspelt.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SwitchMemoryTiming(m, Map.of("onchip", 1L)));
        assertThrows(IllegalArgumentException.class, () -> new SwitchMemoryTiming(m, Map.of("onchip", 1L, "dram", -1L)));
    }
}
