package dev.innet.lake.controller;

import dev.innet.protocol.ForwardingSwitchOs;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import java.math.BigInteger;
import java.util.List;

/**
 * LaKe's switch OS: on every fresh or reset device (which lost every register) it seeds
 * {@code tag_counter} above every tag an earlier generation can have issued, before forwarding goes
 * in, so no tag of the new generation repeats an old one still in flight (specs/lake: tags never
 * repeat). Tags of generation g start at g * 2^24: each generation may issue 2^24 tags
 * (docs/lake.md, Limits).
 */
public final class LakeSwitchOs extends ForwardingSwitchOs {
    public static final String TAG_COUNTER = "MyIngress.tag_counter";
    static final int TAG_BITS_PER_GENERATION = 24;

    public LakeSwitchOs(List<Integer> hosts, SwitchHandle handle, long pollNanos) {
        super(hosts, handle, pollNanos);
    }

    @Override
    protected void beforeForwarding(SwitchControl control, int generation) {
        control.registerWrite(TAG_COUNTER, 0, tagBase(generation));
    }

    /**
     * Makes the data plane forget what memcached lost when it restarted empty: every slot of both
     * layers invalid (no GET is answered from them), and the lookup table cleared, so a reply still in
     * flight from the old memcached matches no tag and is dropped (LK-7) instead of filling a lost
     * item back in. Requests in flight to other hosts lose their entries too: their clients time out
     * (a GET is retried; a SET ends unknown), which is safe. Tags and fences stay: new tags stay above
     * every fence.
     */
    public static void forgetCachedItems(SwitchControl control) {
        control.registerReset("MyIngress.lut_tag");
        control.registerReset("MyIngress.l1_valid");
        control.registerReset("MyIngress.l2_valid");
    }

    /** The first tag of switch generation {@code generation} minus one: what {@code tag_counter} is seeded with. */
    public static BigInteger tagBase(int generation) {
        return BigInteger.valueOf(generation).shiftLeft(TAG_BITS_PER_GENERATION);
    }
}
