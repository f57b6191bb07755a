package dev.innet.farreach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.innet.farreach.controller.ControllerHooks;
import dev.innet.farreach.controller.FarReachController;
import dev.innet.farreach.monitor.SnapshotMonitor;
import dev.innet.protocol.RackPorts;
import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.check.RunVerdict;
import dev.innet.sim.RandomSource;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * FarReach's reliability design (§3.4) under faults: crash-consistent snapshots taken while writes go
 * on, client record preservation, and zero-loss recovery of a crashed switch. Monitors: porcupine and
 * the lost-write monitor on every history, and the snapshot monitor comparing every snapshot with the
 * cache at its snapshot point. Each is shown catching a seeded bug, and the protocol's known limitation
 * (a client and the switch crashing together) is shown losing data.
 */
class RecoveryTest {
    static final long SNAPSHOT_PERIOD = 3_000_000;
    static final int SEEDS = 6;

    @TempDir
    Path durable;

    /** FarReach with snapshots every 3 ms and a snapshot monitor on them. */
    private static FarReachProtocol monitored(SnapshotMonitor[] monitor) {
        return new FarReachProtocol().withSnapshotPeriodNanos(SNAPSHOT_PERIOD)
                .withHooks(h -> monitor[0] = new SnapshotMonitor(h));
    }

    /** A churning rack of {@code protocol} whose servers keep their records in RocksDB. */
    private Rack.Builder rack(long seed, FarReachProtocol protocol) {
        return CampaignSettings.ci().rack(RackRuns.root(), protocol, seed).out(RackRuns.QUIET)
                .rocksdb(durable.resolve("seed" + seed));
    }

    private Rack.Builder rack(long seed, SnapshotMonitor[] monitor) {
        return rack(seed, monitored(monitor));
    }

    private static FarReachController controller(Rack rack) {
        return (FarReachController) rack.controller();
    }

    /** Crash time drawn from the seed, in the busy middle of the chaos phase. */
    private static long crashTime(Rack rack) {
        RandomSource r = rack.simulation().random("crash-time");
        return 5_000_000 + r.nextLong(20_000_000);
    }

    private static void assertAllSafe(Rack rack, SnapshotMonitor monitor, String name) throws Exception {
        assertEquals(java.util.List.of(), monitor.violations(), name + ": snapshot monitor");
        RackRuns.assertSafe(rack, name);
    }

    @Test
    void switchCrashAtAnyPointLosesNoAcknowledgedWrite() throws Exception {
        Set<String> crashedDuring = new TreeSet<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            SnapshotMonitor[] monitor = new SnapshotMonitor[1];
            Rack rack = rack(seed, monitor).build();
            long t = crashTime(rack);
            rack.simulation().at(t, "probe", () -> crashedDuring.add(controller(rack).currentProcedure()));
            rack.crashSwitch(t, t + 200_000);
            rack.run();
            assertEquals(1, controller(rack).stats().recoveries, "seed " + seed + ": " + controller(rack).stats());
            assertTrue(monitor[0].checked() > 0, "seed " + seed + ": no snapshot completed");
            assertAllSafe(rack, monitor[0], "switch-crash-" + seed);
        }
        System.out.println("switch crashed during: " + crashedDuring);
        assertTrue(crashedDuring.size() >= 2, "crashes should hit different controller procedures: " + crashedDuring);
    }

    /**
     * Crashes the switch in the middle of a chosen controller procedure: 30 us after the first one that
     * starts after 5 ms (admissions take 4 control steps of 20 us, snapshots at least 3, evictions a
     * server round trip more), then checks the crash really hit it. Procedures are named after the
     * spec's actions (Admit, Evict, Snap).
     */
    @ParameterizedTest(name = "crash during {0}")
    @ValueSource(strings = {"Admit", "Evict", "Snap"})
    void switchCrashInTheMiddleOfAProcedureLosesNothing(String procedure) throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            SnapshotMonitor[] monitor = new SnapshotMonitor[1];
            Rack[] rackRef = new Rack[1];
            String[] hit = new String[1];
            ControllerHooks trigger = new ControllerHooks() {
                @Override
                public void procedureStarted(String name, long now) {
                    if (hit[0] == null && name.equals(procedure) && now > 5_000_000) {
                        hit[0] = "armed";
                        Rack r = rackRef[0];
                        r.simulation().at(now + 30_000, "probe", () -> hit[0] = controller(r).currentProcedure());
                        r.crashSwitch(now + 30_000, now + 230_000);
                    }
                }
            };
            Rack rack = rack(seed, new FarReachProtocol().withSnapshotPeriodNanos(SNAPSHOT_PERIOD)
                    .withHooks(h -> ControllerHooks.both(monitor[0] = new SnapshotMonitor(h), trigger))).build();
            rackRef[0] = rack;
            rack.run();
            assertEquals(procedure, hit[0], "seed " + seed + ": the crash did not land inside a " + procedure);
            assertEquals(1, controller(rack).stats().recoveries);
            assertAllSafe(rack, monitor[0], "crash-in-" + procedure + "-" + seed);
        }
    }

    @Test
    void controllerAndServerCrashesLoseNothing() throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            SnapshotMonitor[] monitor = new SnapshotMonitor[1];
            Rack rack = rack(seed, monitor).build();
            long t = crashTime(rack);
            rack.crashHost(t, t + 500_000, RackPorts.CONTROLLER_HOST);
            rack.crashHost(t + 3_000_000, t + 3_400_000, rack.servers().get(0));
            rack.run();
            assertAllSafe(rack, monitor[0], "controller-server-crash-" + seed);
        }
    }

    /**
     * A client cut off by a partition while the switch crashes is silent, not crashed: it holds the only
     * copy of writes the switch acknowledged, so recovery waits for it (the gate stays closed) rather than
     * going on without it. The partition lasts 10 ms past the switch's restart, twice the 5 ms after which
     * the controller reports a silent client, so each run shows the wait happened.
     */
    @Test
    void switchCrashWhileAClientIsCutOffWaitsForItAndLosesNothing() throws Exception {
        for (long seed = 1; seed <= 4; seed++) {
            SnapshotMonitor[] monitor = new SnapshotMonitor[1];
            Rack rack = rack(seed, monitor).build();
            long t = crashTime(rack);
            rack.simulation().isolateHost(t - 100_000, t + 10_200_000, rack.clients().get(0));
            rack.crashSwitch(t, t + 200_000);
            rack.run();
            assertEquals(1, controller(rack).stats().recoveries, "seed " + seed + ": " + controller(rack).stats());
            assertTrue(controller(rack).stats().recoverySilentClientReports > 0,
                    "seed " + seed + ": recovery never waited for the cut-off client: " + controller(rack).stats());
            assertAllSafe(rack, monitor[0], "switch-crash-client-cut-off-" + seed);
        }
    }

    /**
     * Recovery's conversation with the clients runs over lossy, duplicating, reordering client links: a
     * lost or duplicated preserved record must neither stall recovery (it asks again) nor be miscounted.
     * (Found by the 10-minute Jepsen campaign once recovery stopped giving up on silent clients: a client
     * whose announcement arrived but one of whose records was lost was never asked again.)
     */
    @Test
    void recoveryCompletesOverLossyDuplicatingClientLinks() throws Exception {
        for (long seed = 1; seed <= 4; seed++) {
            SnapshotMonitor[] monitor = new SnapshotMonitor[1];
            Rack rack = rack(seed, monitor).build();
            for (int client : rack.clients()) {
                rack.simulation().link(client).toSwitch().setFaults(CampaignSettings.LOSSY);
                rack.simulation().link(client).fromSwitch().setFaults(CampaignSettings.LOSSY);
            }
            long t = crashTime(rack);
            rack.crashSwitch(t, t + 200_000);
            rack.run();
            assertEquals(1, controller(rack).stats().recoveries, "seed " + seed + ": " + controller(rack).stats());
            assertAllSafe(rack, monitor[0], "switch-crash-lossy-clients-" + seed);
        }
    }

    @Test
    void monitorsCatchRecoveryThatGivesUpOnSilentClients() throws Exception {
        long seed = firstCaught("bug-give-up-on-silent", SeededBugs::recoveryGivingUpOnSilentClients, Fault.CUT_OFF_CLIENT);
        System.out.println("recovery giving up on a cut-off client caught at seed " + seed);
    }

    /** What happens to client 0 around the switch crash in {@link #firstCaught}. */
    private enum Fault { NONE, CRASH_CLIENT, CUT_OFF_CLIENT }

    /** Runs seeds until a monitor flags a run; fails if none does. */
    private long firstCaught(String name, UnaryOperator<FarReachProtocol> variant, Fault clientFault) throws Exception {
        for (long seed = 1; seed <= 12; seed++) {
            SnapshotMonitor[] monitor = new SnapshotMonitor[1];
            Rack rack = rack(seed, variant.apply(monitored(monitor))).build();
            long t = crashTime(rack);
            switch (clientFault) {
                case CRASH_CLIENT -> rack.crashHost(t - 100_000, t + 5_000_000, rack.clients().get(0));
                case CUT_OFF_CLIENT -> rack.simulation().isolateHost(t - 100_000, t + 10_200_000, rack.clients().get(0));
                case NONE -> { }
            }
            rack.crashSwitch(t, t + 200_000);
            rack.run();
            RunVerdict v = RackRuns.verdict(rack, name + "-" + seed);
            if (v.violated() || !monitor[0].violations().isEmpty()) {
                return seed;
            }
        }
        fail(name + ": no seed exposed it; the monitors cannot see this bug");
        return -1;
    }

    @Test
    void monitorsCatchRecoveryThatIgnoresPreservedRecords() throws Exception {
        long seed = firstCaught("bug-ignore-preserved", SeededBugs::recoveryIgnoringPreservedRecords, Fault.NONE);
        System.out.println("recovery ignoring preserved records caught at seed " + seed);
    }

    @Test
    void monitorsCatchRecoveryThatLeavesSequenceCountersAtZero() throws Exception {
        long seed = firstCaught("bug-counters-zero", SeededBugs::recoveryLeavingCountersAtZero, Fault.NONE);
        System.out.println("recovery with counters at zero caught at seed " + seed);
    }

    @Test
    void snapshotMonitorCatchesSnapshotsWithoutFirstWriteOriginals() throws Exception {
        for (long seed = 1; seed <= 6; seed++) {
            SnapshotMonitor[] monitor = new SnapshotMonitor[1];
            Rack rack = rack(seed, SeededBugs.snapshotsWithoutFirstWriteOriginals(monitored(monitor))).build();
            rack.run();
            if (!monitor[0].violations().isEmpty()) {
                System.out.println("snapshot without originals caught at seed " + seed + ": "
                        + monitor[0].violations().get(0).substring(0, 120));
                return;
            }
        }
        fail("the snapshot monitor never caught snapshots without first-write originals");
    }

    /**
     * The paper's known limitation (§3.4): preserved records live in client memory, so a client that
     * crashes just before the switch takes the only copy of its switch-answered writes with it. This test
     * expects the monitors to see the loss; if it stops failing, the limitation or the monitors changed.
     */
    @Test
    void knownLimitationClientAndSwitchCrashingTogetherLoseWrites() throws Exception {
        long seed = firstCaught("limitation-client-and-switch", p -> p, Fault.CRASH_CLIENT);
        System.out.println("client + switch crash lost acknowledged writes at seed " + seed + " (expected)");
    }
}
