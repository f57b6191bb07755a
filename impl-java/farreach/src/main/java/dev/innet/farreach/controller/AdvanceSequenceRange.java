package dev.innet.farreach.controller;

import dev.innet.kv.cache.ControlProcedure;
import dev.innet.kv.cache.SequenceBase;
import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;

/**
 * A slot's sequence numbers reached the high-water mark of their 2^24 range (farreach.p4 sets
 * {@code seq_range_exhausted}; FR-17): every counter is raised to the base of the next range, so every
 * number assigned from now on exceeds every number assigned before, as after a switch restart but without
 * one (an innet extension; the paper's counters simply overflow, §4.2). Nothing else changes: a cached
 * record keeps its seq, and a server's reply with an older seq no longer makes it latest (the seq_bound
 * guard) until a write does.
 *
 * <p>At the 32-bit wrap (all 256 ranges taken) there is no next range: the flag stays set, and the switch
 * keeps refusing writes of every slot at the end of its range (DROP_SEQ_EXHAUSTED) while it serves reads
 * and the other slots' writes. No number is ever reused, so nothing stale can win; writes to those keys
 * stay unavailable until an operator renumbers the system (not built: docs/farreach.md, "Sequence
 * numbers").
 */
public class AdvanceSequenceRange implements ControlProcedure {
    private final FarReachController controller;

    protected AdvanceSequenceRange(FarReachController controller) {
        this.controller = controller;
    }

    @Override
    public boolean step(SwitchControl c) {
        if (!controller.sequenceRangeLeft()) {
            controller.sequenceSpaceExhausted();
            return true;
        }
        long base = controller.takeSequenceRange();
        SequenceBase.raise(c, base);
        c.registerWrite(FarReachControlNames.SEQ_RANGE_EXHAUSTED, 0, BigInteger.ZERO);
        controller.stats().sequenceRangeAdvances++;
        controller.context().log("sequence numbers advanced to the range at " + base);
        return true;
    }
}
