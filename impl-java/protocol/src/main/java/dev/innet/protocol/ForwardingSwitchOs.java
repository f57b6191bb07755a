package dev.innet.protocol;

import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import java.util.List;
import java.util.Map;

/**
 * A switch OS for programs that need nothing from the control plane but a fresh switch brought up:
 * whenever it sees a switch generation it has not seen with no forwarding installed (a fresh or
 * restarted switch, which lost every table and register), it runs {@link #beforeForwarding} and then
 * installs forwarding. Until forwarding is in, the data plane forwards nothing, so what
 * {@code beforeForwarding} programs is in place before the first packet. Packets sent to it are
 * counted and dropped.
 */
public class ForwardingSwitchOs implements Node, NodeCounters {
    private final List<Integer> hosts;
    private final SwitchHandle handle;
    private final long pollNanos;
    private NodeContext ctx;
    private int seenGeneration;
    private long bringUps;
    private long stray;

    public ForwardingSwitchOs(List<Integer> hosts, SwitchHandle handle, long pollNanos) {
        this.hosts = List.copyOf(hosts);
        this.handle = handle;
        this.pollNanos = pollNanos;
    }

    /** Programs a fresh switch of {@code generation} before its forwarding goes in; nothing by default. */
    protected void beforeForwarding(SwitchControl control, int generation) { }

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
                beforeForwarding(handle.control(), seenGeneration);
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
