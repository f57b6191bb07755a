package dev.innet.farreach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.controller.ControllerHooks;
import dev.innet.farreach.controller.FarReachController;
import dev.innet.kv.cache.SequenceBase;
import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.sim.NodeContext;
import dev.innet.switchapi.SwitchHandle;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * Sequence numbers at the end of a switch incarnation's 2^24 range and at the 32-bit wrap (issue 13
 * item 12; docs/farreach.md, "Sequence numbers"). Reaching 2^24 writes in one slot takes too long for a
 * test, so the test moves every counter close to the end of its range during the run (as if the slots
 * had taken that many writes) and keeps the controller's count of ranges in step where needed. The
 * monitors (porcupine, lost-write monitor) then check that no write was lost or reordered across the
 * advance, and the counters show that no number left its range or wrapped.
 */
class SequenceRangeTest {
    private static final long RANGE = 1L << 24;
    private static final int HIGH_WATER = 0xFFF000;

    /** FarReach whose hooks hand the test the switch handle, and whose controller starts with {@code rangesTaken}. */
    private static FarReachProtocol protocol(SwitchHandle[] handle, long rangesTaken) {
        return new FarReachProtocol().withHooks(h -> {
            handle[0] = h;
            return ControllerHooks.NONE;
        }).withControllers((config, settings, h, hooks) -> new FarReachController(config, settings, h, hooks) {
            @Override
            protected void onStarted(NodeContext context) {
                if (rangesTaken > 0 && context.durable().get(DURABLE_SEQUENCE_RANGES).isEmpty()) {
                    context.durable().put(DURABLE_SEQUENCE_RANGES, ByteBuffer.allocate(8).putLong(rangesTaken).array());
                }
                super.onStarted(context);
            }
        });
    }

    /** At {@code time}, every counter slot jumps to {@code value} (as if its slot had taken that many writes). */
    private static void jumpCounters(Rack rack, SwitchHandle[] handle, long time, long value) {
        rack.simulation().at(time, "counters to " + value, () -> SequenceBase.raise(handle[0].control(), value));
    }

    private static long counter(SwitchHandle[] handle, int slot) {
        return handle[0].control().registerRead(SequenceBase.SEQ_COUNTER, slot).longValue();
    }

    /** The smallest and the largest counter over all slots. */
    private static long[] counterRange(SwitchHandle[] handle) {
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int slot = 0; slot < SequenceBase.SEQ_SLOTS; slot++) {
            long c = counter(handle, slot);
            min = Math.min(min, c);
            max = Math.max(max, c);
        }
        return new long[] {min, max};
    }

    private static long controllerCounter(Rack rack, String name) {
        return rack.controllerCounters().getOrDefault(name, 0L);
    }

    @Test
    void exhaustedRangesAdvanceWithoutLosingOrReorderingWrites() throws Exception {
        SwitchHandle[] handle = new SwitchHandle[1];
        Rack rack = CampaignSettings.ci().rack(RackRuns.root(), protocol(handle, 0), 3).out(RackRuns.QUIET).build();
        // past the high-water mark of range 0: the controller advances to range 1
        jumpCounters(rack, handle, 5_000_000, HIGH_WATER + 100);
        // two numbers before the end of range 1: hot slots reach the end before the controller reacts, and
        // their writes are refused (and retried by their clients) until it has advanced to range 2
        jumpCounters(rack, handle, 15_000_000, RANGE + 0xFFFFFE - 1);
        rack.run();
        RackRuns.assertSafe(rack, "sequence-range-advance");
        assertEquals(2, controllerCounter(rack, "sequenceRangeAdvances"));
        long[] range = counterRange(handle);
        assertEquals(2 * RANGE, range[0], "every slot was raised to range 2's base");
        assertTrue(range[1] > 2 * RANGE && range[1] < 3 * RANGE, "writes were numbered in range 2: " + range[1]);
    }

    @Test
    void theThirtyTwoBitWrapRefusesWritesOfExhaustedSlotsAndReusesNoNumber() throws Exception {
        SwitchHandle[] handle = new SwitchHandle[1];
        // the controller has handed out 255 ranges: the next advance takes the last one (0xFF000000)
        Rack rack = CampaignSettings.ci().rack(RackRuns.root(), protocol(handle, 255), 5).out(RackRuns.QUIET).build();
        jumpCounters(rack, handle, 3_000_000, HIGH_WATER + 100);
        // 20 numbers before 2^32 in range 255: hot slots run out; there is no range 256
        jumpCounters(rack, handle, 8_000_000, 0xFFFFFFFFL - 20);
        rack.run();
        RackRuns.assertSafe(rack, "sequence-wrap");
        assertEquals(1, controllerCounter(rack, "sequenceRangeAdvances"));
        long[] range = counterRange(handle);
        assertEquals(0xFFFFFFFFL, range[1], "a hot slot reached the last 32-bit number and stopped there");
        assertTrue(range[0] >= 0xFFFFFFFFL - 20, "no slot wrapped to a small number: smallest " + range[0]);
        assertEquals(BigInteger.ONE, handle[0].control().registerRead("MyIngress.seq_range_exhausted", 0));
    }
}
