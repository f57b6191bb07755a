package dev.innet.live;

import static dev.innet.live.LiveValidationRacks.stateDir;
import static dev.innet.live.LiveValidationRacks.uniqueName;
import static dev.innet.live.LiveValidationRacks.validate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A live rack whose switch is killed (SIGKILL) and restarted is trace-validated with the crash in it: the restarted
 * p4sim appends to its predecessor's trace file and first records the simulator's {@code switchCrash}
 * (p4sim's FrameTraceWriter), so the converter sees the crash the recovery answers. A FarReach rack (the
 * recovery with zero loss: preserved records collected from the clients, replayed, the fence) runs, loses its
 * switch, recovers, runs again, and the whole run is accepted by FarReachTrace.tla. Skipped (not passed) where the
 * machine forbids network namespaces.
 */
class LiveSwitchRestartTraceValidationTest {
    @BeforeAll
    static void requireNamespaces() {
        NetworkNamespaces.assumeAllowed("innet");
    }

    @Test
    void aFarReachRunAcrossASwitchRestartIsAcceptedWithTheCrashInIt() throws Exception {
        String name = uniqueName("lsr");
        RackLayout layout = RackLayout.of(name, stateDir(name), 2, 2);
        RackUp.Settings settings = LiveValidationRacks.settings(layout, "farreach", "");
        new RackUp(settings, System.out).up();
        try {
            RackRun.run(layout, 200, 6, 120_000, System.out);
            RackPlan.Process sw = LiveValidationRacks.current(layout, "switch");
            CachingRackRuns.crashTheSwitchAndAwaitTheController(settings, layout, sw.pid(), System.out);
            RackRun.run(layout, 200, 6, 120_000, System.out);
            long crashes = Files.readAllLines(layout.traceEventsOf(0)).stream()
                    .filter(l -> l.contains("\"event\":\"switchCrash\"")).count();
            assertEquals(1, crashes, "the restarted switch recorded the crash it replaces");
            LiveValidationRacks.Validation v = validate(name);
            assertEquals(RackMain.Validate.EXIT_ACCEPTED, v.exit(), v.out());
            String run = Files.readString(LiveRunValidation.directoryOf(layout).resolve("run.ndjson"));
            assertTrue(run.contains("\"event\":\"switchCrash\"") && run.contains("\"event\":\"switchCrashSeen\""),
                    "the validated run holds the crash and the controller's recovery");
        } finally {
            LiveValidationRacks.down(name);
        }
    }
}
