package dev.innet.nocache;

import dev.innet.protocol.Forwarding;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.switchapi.SwitchHandle;
import java.util.List;
import java.util.Map;

/**
 * The no-cache rack's switch OS: whenever it sees a switch generation it has not seen with no
 * forwarding installed (a fresh or restarted switch, which lost every table), it installs forwarding.
 * Nothing else: the program has no cache to manage. Control packets to it are counted and dropped.
 */
public final class NoCacheSwitchOs implements Node, dev.innet.protocol.NodeCounters {
    private final List<Integer> hosts;
    private final SwitchHandle handle;
    private final long pollNanos;
    private NodeContext ctx;
    private int seenGeneration;
    private long bringUps;
    private long stray;

    public NoCacheSwitchOs(List<Integer> hosts, SwitchHandle handle, long pollNanos) {
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
                Forwarding.install(handle.control(), hosts);
                bringUps++;
                ctx.log("switch generation " + seenGeneration + " programmed");
            }
        }
        ctx.timers().schedule(pollNanos);
    }

    @Override
    public Map<String, Long> counters() {
        return Map.of("switchBringUps", bringUps, "malformed", stray);
    }
}
