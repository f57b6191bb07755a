package dev.innet.rack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.innet.rack.check.RunVerdict;
import dev.innet.rack.check.SnapshotMonitor;
import dev.innet.rack.controller.SeededBug;
import dev.innet.sim.RandomSource;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import dev.innet.rack.controller.ControllerHooks;
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

    /** A churning FarReach rack with snapshots every 3 ms and a monitor on them. */
    private Rack.Builder rack(long seed, SnapshotMonitor[] monitor) {
        return CampaignSettings.ci().rack(RackRuns.root(), CacheProgram.FARREACH, seed).out(RackRuns.QUIET)
                .snapshotPeriodNanos(SNAPSHOT_PERIOD).rocksdb(durable.resolve("seed" + seed))
                .hooks(r -> monitor[0] = new SnapshotMonitor(r));
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
            rack.simulation().at(t, "probe", () -> crashedDuring.add(rack.controller().currentProcedure()));
            rack.crashSwitch(t, t + 200_000);
            rack.run();
            assertEquals(1, rack.controller().stats().recoveries, "seed " + seed + ": " + rack.controller().stats());
            assertTrue(monitor[0].checked() > 0, "seed " + seed + ": no snapshot completed");
            assertAllSafe(rack, monitor[0], "switch-crash-" + seed);
        }
        System.out.println("switch crashed during: " + crashedDuring);
        assertTrue(crashedDuring.size() >= 2, "crashes should hit different controller procedures: " + crashedDuring);
    }

    /**
     * Crashes the switch in the middle of a chosen controller procedure: 30 us after the first one that
     * starts after 5 ms (admissions take 4 control steps of 20 us, snapshots at least 3, evictions a
     * server round trip more), then checks the crash really hit it.
     */
    @ParameterizedTest(name = "crash during {0}")
    @ValueSource(strings = {"FarReachAdmission", "FarReachEviction", "SnapshotTask"})
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
                        r.simulation().at(now + 30_000, "probe", () -> hit[0] = r.controller().currentProcedure());
                        r.crashSwitch(now + 30_000, now + 230_000);
                    }
                }
            };
            Rack rack = rack(seed, monitor).hooks(r -> ControllerHooks.both(monitor[0] = new SnapshotMonitor(r), trigger))
                    .build();
            rackRef[0] = rack;
            rack.run();
            assertEquals(procedure, hit[0], "seed " + seed + ": the crash did not land inside a " + procedure);
            assertEquals(1, rack.controller().stats().recoveries);
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

    /** Runs seeds until a monitor flags a run; fails if none does. */
    private long firstCaught(String name, UnaryOperator<Rack.Builder> variant, boolean crashClientToo) throws Exception {
        for (long seed = 1; seed <= 12; seed++) {
            SnapshotMonitor[] monitor = new SnapshotMonitor[1];
            Rack rack = variant.apply(rack(seed, monitor)).build();
            long t = crashTime(rack);
            if (crashClientToo) {
                rack.crashHost(t - 100_000, t + 5_000_000, rack.clients().get(0));
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
        long seed = firstCaught("bug-ignore-preserved", b -> b.bugs(Set.of(SeededBug.RECOVERY_IGNORES_PRESERVED)), false);
        System.out.println("recovery ignoring preserved records caught at seed " + seed);
    }

    @Test
    void monitorsCatchRecoveryThatLeavesSequenceCountersAtZero() throws Exception {
        long seed = firstCaught("bug-counters-zero", b -> b.bugs(Set.of(SeededBug.RECOVERY_KEEPS_COUNTERS_AT_ZERO)), false);
        System.out.println("recovery with counters at zero caught at seed " + seed);
    }

    @Test
    void snapshotMonitorCatchesSnapshotsWithoutFirstWriteOriginals() throws Exception {
        for (long seed = 1; seed <= 6; seed++) {
            SnapshotMonitor[] monitor = new SnapshotMonitor[1];
            Rack rack = rack(seed, monitor).bugs(Set.of(SeededBug.SNAPSHOT_WITHOUT_ORIGINALS)).build();
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
        long seed = firstCaught("limitation-client-and-switch", b -> b, true);
        System.out.println("client + switch crash lost acknowledged writes at seed " + seed + " (expected)");
    }
}
