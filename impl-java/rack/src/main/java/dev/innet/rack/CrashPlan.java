package dev.innet.rack;

import dev.innet.protocol.RackPorts;
import dev.innet.sim.RandomSource;

/**
 * When a campaign run crashes what: the switch at a time drawn from the run's seed, restarted 0.1-1.1 ms
 * later; unless only the switch is to crash, also the controller and one server (0.2-1.2 ms down). All
 * crashes land between 5 ms and 5 ms before the end of the chaos phase. The switch's draws come first,
 * so its crash time is the same either way.
 */
public final class CrashPlan {
    private CrashPlan() {}

    public static void schedule(Rack rack, long chaosNanos, boolean switchOnly) {
        RandomSource r = rack.simulation().random("crash-plan");
        long window = Math.max(1, chaosNanos - 10_000_000);
        long sw = 5_000_000 + r.nextLong(window);
        rack.crashSwitch(sw, sw + 100_000 + r.nextLong(1_000_000));
        if (switchOnly) {
            return;
        }
        long ctl = 5_000_000 + r.nextLong(window);
        rack.crashHost(ctl, ctl + 200_000 + r.nextLong(1_000_000), RackPorts.CONTROLLER_HOST);
        long srv = 5_000_000 + r.nextLong(window);
        int server = rack.servers().get(r.nextInt(rack.servers().size()));
        rack.crashHost(srv, srv + 200_000 + r.nextLong(1_000_000), server);
    }
}
