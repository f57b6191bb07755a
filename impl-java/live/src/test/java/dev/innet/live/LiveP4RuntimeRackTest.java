package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.ProtocolRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rack up --control p4runtime}: p4sim serves P4Runtime in the switch's namespace and the FarReach
 * controller programs it through {@code P4RuntimeSwitchControl} (tables for forwarding and admissions,
 * register reads and writes for the cache), not through the CLI port. The switch then crashes and is
 * restarted: the controller wins arbitration on the new server and programs the empty switch. Skipped where
 * namespaces are forbidden.
 */
class LiveP4RuntimeRackTest {
    private static Path root;

    @BeforeAll
    static void requireNamespaces() {
        LiveRackTest.requireNamespaces();
        root = Path.of(System.getProperty("innet.root")).toAbsolutePath().normalize();
    }

    @Test
    void farreachRackProgrammedThroughP4RuntimeCachesAndIsLinearizable(@TempDir Path state) throws Exception {
        RackLayout layout = RackLayout.of("p" + (ProcessHandle.current().pid() % 100_000), state, 2, 2);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        RackUp.Settings settings = new RackUp.Settings(root, layout, ProtocolRegistry.byName("farreach"), 7, 90_000,
                ProcessHandle.current().info().command().orElseThrow(),
                RackUp.absoluteClassPath(System.getProperty("java.class.path")), "", false, null, true);
        RackPlan plan;
        try {
            new RackUp(settings, out).up();
            plan = RackPlan.read(layout.planFile());
            assertEquals("p4runtime", plan.setting("control"), "rack restart starts the same kind of switch");
            RackPlan.Process sw = plan.processes().stream().filter(p -> p.name().equals("switch")).findFirst().orElseThrow();
            String cmdline = Files.readString(Path.of("/proc/" + sw.pid() + "/cmdline")).replace('\0', ' ');
            assertTrue(cmdline.contains("dev.innet.p4runtime.Main") && cmdline.contains("--p4runtime-port 9559"), cmdline);
            assertTrue(Files.readString(layout.logOf("switch")).contains("p4sim: P4Runtime server on 127.0.0.1:9559"));

            List<Path> histories = new ArrayList<>();
            CachingRackRuns.runUntilTheSwitchAnswers(layout, out, histories,
                    "the controller admitted keys through P4Runtime, so the switch answered some reads");
            // the controller's StreamChannel is the one P4Runtime connection in the switch's namespace
            assertTrue(establishedTo(layout.switchNamespace(), RackLayout.SWITCH_P4RUNTIME_PORT) > 0,
                    "the controller holds a P4Runtime connection");

            // kill -9 of the switch; rack restart starts it again with its P4Runtime server. The controller's
            // SwitchWatch sees the CLI port close and reopen, connects a new P4RuntimeSwitchControl (the old
            // stream died with the server, so it is primary again) and programs the empty switch; a controller
            // whose call was cut by the crash has stopped and is restarted, as Jepsen's heal does.
            long again = CachingRackRuns.crashTheSwitchAndAwaitTheController(settings, layout, sw.pid(), out);
            assertTrue(Files.readString(Path.of("/proc/" + again + "/cmdline")).contains("dev.innet.p4runtime.Main"));
            histories.add(RackRun.run(layout, 200, 6, 120_000, out).history());
            CachingRackRuns.assertLinearizable(root, histories, state.resolve("all-runs.jsonl"));
        } finally {
            assertEquals(List.of(), RackDown.down(layout.planFile(), out), "rack down removed everything; its output:\n" + log);
        }
        for (RackPlan.Process p : plan.processes()) {
            assertFalse(Pids.alive(p.pid(), p.startTicks()), p.name() + " is stopped");
        }
    }

    @Test
    void p4runtimeControlIsRefusedWithTheBmv2Target() {
        RackLayout layout = RackLayout.of("q", Path.of("/nonexistent"), 1, 1);
        var bmv2 = new dev.innet.p4sim.bmv2.Bmv2Tools(Path.of("p4c"), Path.of("simple_switch"), Path.of("simple_switch_CLI"));
        var e = assertThrows(IllegalArgumentException.class, () -> new RackUp.Settings(root, layout,
                ProtocolRegistry.byName("farreach"), 1, 1_000, "java", "", "", false, bmv2, true));
        assertTrue(e.getMessage().contains("simple_switch_grpc is not driven yet"), e.getMessage());
    }

    /** Established TCP connections to {@code port} in namespace {@code ns} (ss, as root). */
    private static int establishedTo(String ns, int port) throws Exception {
        Process ss = new ProcessBuilder("ip", "netns", "exec", ns, "ss", "-Htn", "state", "established",
                "( dport = :" + port + " )").redirectErrorStream(true).start();
        String text = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ss.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, ss.exitValue(), text);
        return (int) text.lines().filter(l -> !l.isBlank()).count();
    }
}
