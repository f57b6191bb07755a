package dev.innet.rack;

import dev.innet.protocol.CrashKind;
import dev.innet.protocol.RackPorts;
import dev.innet.sim.RandomSource;
import java.util.EnumSet;
import java.util.Set;

/**
 * When a campaign run crashes what: the switch at a time drawn from the run's seed, restarted 0.1-1.1 ms
 * later; the controller and servers 0.2-1.2 ms down. All crashes land between 5 ms and 5 ms before the end
 * of the chaos phase. The draws are made in a fixed order (switch, controller, one server, every server),
 * each part's only if it is to crash, so the switch's crash time is the same whatever else crashes.
 */
public final class CrashPlan {
    private CrashPlan() {}

    /** FarReach's and Pegasus's plan: the switch; unless only the switch is to crash, also the controller and one server. */
    public static void schedule(Rack rack, long chaosNanos, boolean switchOnly) {
        schedule(rack, chaosNanos, switchOnly ? EnumSet.of(CrashKind.SWITCH)
                : EnumSet.of(CrashKind.SWITCH, CrashKind.CONTROLLER, CrashKind.ONE_SERVER));
    }

    /** Crashes each of {@code kinds} once (every server once for {@link CrashKind#EVERY_SERVER}). */
    public static void schedule(Rack rack, long chaosNanos, Set<CrashKind> kinds) {
        RandomSource r = rack.simulation().random("crash-plan");
        long window = Math.max(1, chaosNanos - 10_000_000);
        if (kinds.contains(CrashKind.SWITCH)) {
            long sw = 5_000_000 + r.nextLong(window);
            rack.crashSwitch(sw, sw + 100_000 + r.nextLong(1_000_000));
        }
        if (kinds.contains(CrashKind.CONTROLLER)) {
            long ctl = 5_000_000 + r.nextLong(window);
            rack.crashHost(ctl, ctl + 200_000 + r.nextLong(1_000_000), RackPorts.CONTROLLER_HOST);
        }
        if (kinds.contains(CrashKind.ONE_SERVER)) {
            long srv = 5_000_000 + r.nextLong(window);
            int server = rack.servers().get(r.nextInt(rack.servers().size()));
            rack.crashHost(srv, srv + 200_000 + r.nextLong(1_000_000), server);
        }
        if (kinds.contains(CrashKind.EVERY_SERVER)) {
            for (int server : rack.servers()) {
                long srv = 5_000_000 + r.nextLong(window);
                rack.crashHost(srv, srv + 200_000 + r.nextLong(1_000_000), server);
            }
        }
    }
}
