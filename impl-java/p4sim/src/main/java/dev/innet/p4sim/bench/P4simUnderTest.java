package dev.innet.p4sim.bench;

import dev.innet.p4sim.ports.LiveSwitch;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** p4sim in this process, a {@link LiveSwitch} over the prepared switch itself, moving frames with {@code io}. */
final class P4simUnderTest implements SwitchUnderTest {
    private final LiveSwitch live;
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();

    private P4simUnderTest(LiveSwitch live) {
        this.live = live;
    }

    static SwitchUnderTest.Starter with(LiveSwitch.Io io) {
        return (scenario, iface) -> {
            LiveSwitch l = new LiveSwitch(scenario.prepared(), scenario.prepared(), io, System.err);
            try {
                l.attach(scenario.workloadPort(), iface);
                l.start();
            } catch (Exception e) {
                l.close();
                throw e;
            }
            return new P4simUnderTest(l);
        };
    }

    @Override
    public String description() {
        return "p4sim on " + (live.io() == LiveSwitch.Io.RING ? "PACKET_MMAP rings" : "plain AF_PACKET sockets");
    }

    /** The thread that runs the pipeline (rings) or receives and processes (sockets). */
    @Override
    public long cpuNanos() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("p4sim-pipeline") || t.getName().startsWith("p4sim-rx-")) {
                return Math.max(0, mx.getThreadCpuTime(t.threadId()));
            }
        }
        return 0;
    }

    @Override
    public long receiveDrops() {
        return live.receiveDrops();
    }

    @Override
    public void close() {
        live.close();
    }
}
