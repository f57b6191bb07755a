package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The steps the live tests of a cache rack on another switch API share (LiveBmv2RackTest, LiveP4RuntimeRackTest):
 * runs until the switch has answered reads, a switch crash and restart the controller must recover from, and
 * porcupine's verdict on all the runs together.
 */
final class CachingRackRuns {
    private CachingRackRuns() {}

    /**
     * Runs of 300 operations on 6 keys, at most 5, until the switch has answered some reads: hot keys are reported
     * and admitted about once a second, and one run may end before that. Adds each run's history to
     * {@code histories}; fails, quoting the clients' reports, if the switch never answered.
     */
    static void runUntilTheSwitchAnswers(RackLayout layout, PrintStream out, List<Path> histories, String why) throws Exception {
        List<String> reports = new ArrayList<>();
        long fromSwitch = 0;
        for (int round = 0; round < 5 && fromSwitch == 0; round++) {
            RackRun.Result run = RackRun.run(layout, 300, 6, 120_000, out);
            histories.add(run.history());
            reports.addAll(run.clientReports());
            fromSwitch = run.clientReports().stream().mapToLong(CachingRackRuns::fromSwitch).sum();
        }
        assertTrue(fromSwitch > 0, why + ": " + reports);
    }

    /**
     * Kills the switch (SIGKILL) and restarts it from the plan; then waits until the controller has programmed the
     * new switch ({@code switch generation 2 programmed}, which a controller also logs when a procedure of its
     * protocol programmed it: FarReach's recovery). A controller whose control call was cut by the crash has
     * stopped, and is restarted as Jepsen's switch-crash heal restarts it. Returns the new switch's pid.
     */
    static long crashTheSwitchAndAwaitTheController(RackUp.Settings settings, RackLayout layout, long switchPid,
            PrintStream out) throws Exception {
        ProcessHandle switchProcess = ProcessHandle.of(switchPid).orElseThrow();
        switchProcess.destroyForcibly();
        switchProcess.onExit().get(10, TimeUnit.SECONDS);
        RackPlan.Process again = new RackUp(settings, out).restart(RackPlan.read(layout.planFile()), "switch");
        String controller = "controller-h" + layout.controllerHost();
        Path controllerLog = layout.logOf(controller);
        RackPlan.Process ctl = LiveValidationRacks.current(layout, controller);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(controllerLog).contains("switch generation 2 programmed")) {
            if (!Pids.alive(ctl.pid(), ctl.startTicks())) {
                new RackUp(settings, out).restart(RackPlan.read(layout.planFile()), controller);
                break;
            }
            assertTrue(System.nanoTime() < deadline, "the controller did not program the restarted switch: "
                    + RackUp.tail(controllerLog));
            Thread.sleep(200);
        }
        return again.pid();
    }

    /** Porcupine (lincheck) finds the runs' histories, concatenated into {@code all}, linearizable. */
    static void assertLinearizable(Path root, List<Path> histories, Path all) throws Exception {
        Files.deleteIfExists(all);
        for (Path h : histories) {
            Files.write(all, Files.readAllBytes(h), java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        }
        Process check = new ProcessBuilder(root.resolve(".cache/bin/lincheck").toString(), "-timeout", "30s",
                all.toString()).redirectErrorStream(true).start();
        String verdict = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(check.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, check.exitValue(), "porcupine must find the history linearizable: " + verdict);
    }

    /** The reads a client's report says the switch answered. */
    private static long fromSwitch(String report) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("from_switch=(\\d+)").matcher(report);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
