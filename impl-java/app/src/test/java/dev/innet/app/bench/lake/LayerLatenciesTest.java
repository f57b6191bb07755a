package dev.innet.app.bench.lake;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.innet.lake.LakeProtocol;
import dev.innet.lake.PaperLatency;
import dev.innet.rack.RackRuns;
import org.junit.jupiter.api.Test;

/**
 * The simulator's per-layer timing of LaKe: lake.p4 places its first layer in the memory "onchip" and
 * its second in "dram" ({@code @innet_memory}), and {@link LakeProtocol#switchMemoryNanos} prices them
 * at the paper's latencies. The rest of the path (links, hosts) is the same with and without the timing,
 * so the differences are exact.
 */
class LayerLatenciesTest {
    @Test
    void aSecondLayerHitTakesTheDramLatencyAndAFirstLayerHitTheOnChipOne() {
        LayerLatencies.Figures timed = LayerLatencies.measure(RackRuns.root(), new LakeProtocol());
        LayerLatencies.Figures untimed = LayerLatencies.measure(RackRuns.root(), LakeProtocol.withoutSwitchTiming());
        assertEquals(untimed.firstLayerHit(), untimed.secondLayerHit(), "without timing both layers answer alike");
        assertEquals(PaperLatency.L1_HIT_NANOS, timed.firstLayerHit() - untimed.firstLayerHit(), "a first-layer hit: on-chip");
        assertEquals(PaperLatency.L2_HIT_NANOS, timed.secondLayerHit() - untimed.secondLayerHit(), "a second-layer hit: DRAM");
        // a miss is looked up in both layers on its way to memcached (the paper's DRAM penalty), and memcached's
        // "not found" passes both again (it invalidates any copy of the key behind the fence)
        assertEquals(2 * PaperLatency.L2_HIT_NANOS, timed.miss() - untimed.miss(), "a miss: the DRAM latency each way");
    }
}
