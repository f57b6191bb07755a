package dev.innet.lake.controller;

import dev.innet.protocol.Forwarding;
import dev.innet.protocol.NodeCounters;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.switchapi.SwitchHandle;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * LaKe's switch OS: whenever it sees a switch generation it has not programmed (a fresh or reset
 * device, which lost every register and table), it seeds {@code tag_counter} above every tag an
 * earlier generation can have issued, then installs forwarding. The seed comes first: until
 * forwarding is in, no request reaches the data plane's tagging, so no tag of the new generation is
 * issued below the seed. Tags of generation g start at g * 2^24, so each generation may issue 2^24
 * tags (docs/lake.md, Limits).
 */
public final class LakeSwitchOs implements Node, NodeCounters {
    static final String TAG_COUNTER = "MyIngress.tag_counter";
    static final int TAG_BITS_PER_GENERATION = 24;

    private final List<Integer> hosts;
    private final SwitchHandle handle;
    private final long pollNanos;
    private NodeContext ctx;
    private int seenGeneration;
    private long bringUps;
    private long stray;

    public LakeSwitchOs(List<Integer> hosts, SwitchHandle handle, long pollNanos) {
        this.hosts = List.copyOf(hosts);
        this.handle = handle;
        this.pollNanos = pollNanos;
    }

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        context.timers().schedule(pollNanos);
    }

    @Override
    public void onPacket(byte[] frame) {
        stray++;
    }

    @Override
    public void onTimer(long timerId) {
        if (handle.isUp() && handle.generation() != seenGeneration) {
            seenGeneration = handle.generation();
            if (!Forwarding.installed(handle.control())) {
                handle.control().registerWrite(TAG_COUNTER, 0, tagBase(seenGeneration));
                Forwarding.install(handle.control(), hosts);
                bringUps++;
                ctx.log("switch generation " + seenGeneration + " programmed, tags from " + tagBase(seenGeneration));
            }
        }
        ctx.timers().schedule(pollNanos);
    }

    static BigInteger tagBase(int generation) {
        return BigInteger.valueOf(generation).shiftLeft(TAG_BITS_PER_GENERATION);
    }

    @Override
    public Map<String, Long> counters() {
        return Map.of("switchBringUps", bringUps, "malformed", stray);
    }
}
