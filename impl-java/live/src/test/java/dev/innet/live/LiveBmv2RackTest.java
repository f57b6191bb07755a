package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.bmv2.Bmv2Tools;
import dev.innet.protocol.ProtocolRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rack up --target bmv2} without bmv2 (TOOLCHAIN.md: not installable here): the driver runs the stand-in
 * tools of ptf/tests/bmv2-standin, a p4c-bm2-ss that checks its arguments and writes a JSON naming the program,
 * a simple_switch that execs p4sim on the interfaces it is given with its bmv2-compatible CLI on the Thrift
 * port, and a simple_switch_CLI that talks to that port as the real one talks Thrift. So the driver's command
 * lines, the wait for the Thrift port, the controller's whole use of the CLI (forwarding, admissions, register
 * reads) and the teardown are exercised; bmv2's own behaviour is not. About 25 s. Skipped where namespaces are
 * forbidden.
 */
class LiveBmv2RackTest {
    private static Path root;

    @BeforeAll
    static void requireNamespaces() {
        // the same preconditions as every live rack test (skipped where namespaces are forbidden)
        LiveRackTest.requireNamespaces();
        root = Path.of(System.getProperty("innet.root")).toAbsolutePath().normalize();
        assertTrue(Files.isRegularFile(root.resolve("impl-java/p4sim/target/innet-p4sim-0.1.0-SNAPSHOT.jar")),
                "the stand-in simple_switch runs p4sim's jar: mvn -pl p4sim package builds it");
    }

    @Test
    void farreachRackOnTheBmv2DriverCachesAndIsLinearizable(@TempDir Path state) throws Exception {
        Bmv2Tools tools = Bmv2Tools.find(root.resolve("ptf/tests/bmv2-standin").toString());
        RackLayout layout = RackLayout.of("b" + (ProcessHandle.current().pid() % 100_000), state, 2, 2);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        RackPlan plan;
        RackUp.Settings settings = new RackUp.Settings(root, layout, ProtocolRegistry.byName("farreach"), 7, 90_000,
                ProcessHandle.current().info().command().orElseThrow(),
                RackUp.absoluteClassPath(System.getProperty("java.class.path")), "", false, tools);
        try {
            new RackUp(settings, out).up();
            plan = RackPlan.read(layout.planFile());
            assertEquals("bmv2", plan.setting("target"));
            assertEquals(tools.cli().toString(), plan.setting("bmv2-cli"), "rack restart finds the same tools");
            RackPlan.Process sw = plan.processes().stream().filter(p -> p.name().equals("switch")).findFirst().orElseThrow();
            String cmdline = Files.readString(Path.of("/proc/" + sw.pid() + "/cmdline")).replace('\0', ' ');
            assertTrue(cmdline.contains("innet-p4sim") && cmdline.contains("--control-port 9090"),
                    "the recorded pid is the switch the stand-in simple_switch became: " + cmdline);
            Path json = state.resolve("bmv2/farreach.json");
            assertTrue(Files.readString(json).contains(root.resolve("p4/farreach.p4").toString()), "p4c wrote " + json);

            List<Path> histories = new java.util.ArrayList<>();
            CachingRackRuns.runUntilTheSwitchAnswers(layout, out, histories,
                    "the controller admitted keys through simple_switch_CLI, so the switch answered some reads");

            // the switch crashes (kill -9) and rack restart starts simple_switch again from the plan. A controller
            // that lived through it sees the Thrift port close and reopen (SwitchWatch), attaches a new
            // simple_switch_CLI and programs the empty switch; one whose control call was cut by the crash has
            // stopped, and is restarted as Jepsen's switch-crash heal restarts it (jepsen/nemesis). Either way
            // the rack then serves a linearizable workload again.
            long again = CachingRackRuns.crashTheSwitchAndAwaitTheController(settings, layout, sw.pid(), out);
            assertTrue(Files.readString(Path.of("/proc/" + again + "/cmdline")).contains("innet-p4sim"));
            histories.add(RackRun.run(layout, 200, 6, 120_000, out).history());
            // one history across the runs and the crash: a later run reads values written by an earlier one
            CachingRackRuns.assertLinearizable(root, histories, state.resolve("all-runs.jsonl"));
        } finally {
            assertEquals(List.of(), RackDown.down(layout.planFile(), out), "rack down removed everything; its output:\n" + log);
        }
        for (String ns : plan.namespaces()) {
            assertFalse(Files.exists(RackDown.namespaceFile(ns)), ns + " is gone");
        }
        for (RackPlan.Process p : plan.processes()) {
            assertFalse(Pids.alive(p.pid(), p.startTicks()), p.name() + " is stopped");
        }
    }
}
