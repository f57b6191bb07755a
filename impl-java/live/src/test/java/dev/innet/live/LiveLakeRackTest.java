package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.ProtocolRegistry;
import dev.innet.sim.live.CommandSocket;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live LaKe rack: p4sim running p4/lake.p4 between client namespaces and server namespaces where the
 * REAL memcached (Debian's package) runs, started, health-checked through the switch, killed, restarted
 * and stopped by pid. Skipped (not passed) where network namespaces are forbidden. About 20 s.
 */
class LiveLakeRackTest {
    private static Path root;

    @BeforeAll
    static void requireNamespacesAndMemcached() {
        NetworkNamespaces.assumeAllowed("llk");
        assertTrue(Commands.onPath("memcached"), "memcached is not on PATH: ./innet setup installs it (apt-get install memcached)");
        root = Path.of(System.getProperty("innet.root")).toAbsolutePath().normalize();
        assertTrue(Files.isExecutable(root.resolve(".cache/bin/lincheck")),
                "the porcupine checker is not built at .cache/bin/lincheck: ./innet setup builds it");
    }

    @Test
    void lakeRackRunsRealMemcachedBehindTheSwitchAndItsHistoryIsLinearizable(@TempDir Path state) throws Exception {
        String name = "llk" + (ProcessHandle.current().pid() % 100_000);
        RackLayout layout = RackLayout.of(name, state, 2, 2);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        RackUp.Settings settings = new RackUp.Settings(root, layout, ProtocolRegistry.byName("lake"), 7, 90_000,
                ProcessHandle.current().info().command().orElseThrow(), RackUp.absoluteClassPath(System.getProperty("java.class.path")));
        RackPlan plan;
        try {
            new RackUp(settings, out).up();
            plan = RackPlan.read(layout.planFile());
            assertEquals("memcached", plan.setting("server-program"));
            assertEquals("no", plan.setting("servers-durable"));
            assertEquals("no", plan.setting("duplication-tolerated"));
            for (int h : layout.servers()) {
                RackPlan.Process server = current(plan, "server-h" + h);
                String cmdline = Files.readString(Path.of("/proc/" + server.pid() + "/cmdline")).replace('\0', ' ');
                assertTrue(cmdline.contains("memcached -l " + RackLayout.ip(h) + " -p 0 -U 11211"), "server-h" + h + ": " + cmdline);
                String health = Health.ask(layout, h);
                assertTrue(Health.ready(health) && health.contains("program=memcached"), health);
            }
            assertTrue(CommandSocket.ask(layout.socketOf(1), "clock-skew 5", 3_000).startsWith("error: h1 runs memcached"),
                    "memcached's proxy socket answers health only");

            int operations = 300;
            RackRun.Result run = RackRun.run(layout, operations, 6, 120_000, out);
            List<String> lines = Files.readAllLines(run.history());
            assertEquals(operations + 6, lines.size(), "one history line per operation, and the final read of each key");
            String put = lines.stream().filter(l -> l.contains("\"op\":\"put\"")).findFirst().orElseThrow();
            assertTrue(put.matches(".*\"value\":\"[0-9a-f]{64}\".*"), "values are padded to LaKe's 32 bytes: " + put);
            assertTrue(lines.stream().anyMatch(l -> l.contains("\"op\":\"get\"") && l.contains("\"result\":\"ok\"")),
                    "memcached returned values");
            assertLinearizable(run.history());
            // LaKe answered GETs itself from its first layer: the switch's counters say so (live clients
            // cannot see the IPv4 identification LaKe marks its answers with)
            long l1Hits = lakeStats(layout)[0];
            assertTrue(l1Hits > 0, "LaKe's first layer answered no GET");

            // every key of h2 is written (the run may have deleted them), and every key is read once, so
            // each that exists is in LaKe's layers (SET and GET replies fill them)
            dev.innet.kv.ConsistentHashRing ring = new dev.innet.kv.ConsistentHashRing(layout.servers());
            for (int k = 0; k < 6; k++) {
                byte[] key = dev.innet.live.workload.WorkloadHost.keyOf(k);
                if (ring.ownerOf(key) != 1) {
                    byte[] value = String.format("%-32s", "kept-" + k).getBytes(StandardCharsets.US_ASCII);
                    String written = CommandSocket.ask(layout.socketOf(layout.clients().get(0)),
                            dev.innet.protocol.KvCommandLine.request(dev.innet.protocol.KvCommandLine.Op.PUT, key, value), 30_000);
                    assertEquals(dev.innet.protocol.KvResult.Outcome.OK,
                            dev.innet.protocol.KvCommandLine.parseReply(written).outcome(), "put of key " + k + ": " + written);
                }
            }
            String warmed = CommandSocket.ask(layout.socketOf(layout.clients().get(0)),
                    "final-reads 6 " + state.resolve("before-restart.jsonl"), 60_000);
            assertTrue(warmed.startsWith("done"), warmed);

            // a killed memcached fails its health check; rack restart brings it back, empty
            RackPlan.Process h1 = current(plan, "server-h1");
            new ProcessBuilder("kill", "-9", Long.toString(h1.pid())).start().waitFor();
            long deadline = System.nanoTime() + 10_000_000_000L;
            String after = Health.ask(layout, 1);
            while (Health.ready(after) && System.nanoTime() < deadline) {
                Thread.sleep(100);
                after = Health.ask(layout, 1);
            }
            assertFalse(Health.ready(after), "a killed memcached is not healthy: " + after);
            // without a controller to make the switch forget h1's items first, the restart is refused
            RackPlan.Process controller = current(plan, "controller-h254");
            new ProcessBuilder("kill", "-9", Long.toString(controller.pid())).start().waitFor();
            while (Pids.alive(controller.pid(), controller.startTicks())) {
                Thread.sleep(50);
            }
            RackUp.NotUp refused = org.junit.jupiter.api.Assertions.assertThrows(RackUp.NotUp.class,
                    () -> new RackUp(settings, out).restart(RackPlan.read(layout.planFile()), "server-h1"));
            assertTrue(refused.getMessage().contains("did not make the switch forget"), refused.getMessage());
            new RackUp(settings, out).restart(RackPlan.read(layout.planFile()), "controller-h254");
            RackPlan.Process again = new RackUp(settings, out).restart(RackPlan.read(layout.planFile()), "server-h1");
            assertTrue(again.pid() != h1.pid() && Pids.alive(again.pid(), again.startTicks()));
            assertTrue(Health.ready(Health.ask(layout, 1)), "restarted memcached answers through the switch");
            plan = RackPlan.read(layout.planFile());

            // the restarted memcached is empty, and LaKe forgot what it had cached from it: every key h1
            // owned reads "not found", none from the switch's layers (before the fix, LaKe answered them);
            // LaKe forgot only h1's keys: every key of h2 that exists is still answered from the layers
            Path reads = state.resolve("after-restart.jsonl");
            long[] statsBeforeReads = lakeStats(layout);
            String done = CommandSocket.ask(layout.socketOf(layout.clients().get(0)), "final-reads 6 " + reads, 60_000);
            assertTrue(done.startsWith("done"), done);
            int h1Keys = 0;
            int h2KeysFound = 0;
            for (String line : Files.readAllLines(reads)) {
                for (int k = 0; k < 6; k++) {
                    String hex = java.util.HexFormat.of().formatHex(dev.innet.live.workload.WorkloadHost.keyOf(k));
                    if (!line.contains("\"key\":\"" + hex + "\"")) {
                        continue;
                    }
                    if (ring.ownerOf(dev.innet.live.workload.WorkloadHost.keyOf(k)) == 1) {
                        h1Keys++;
                        assertTrue(line.contains("\"result\":\"not_found\""), "key " + k + " was on the restarted memcached: " + line);
                    } else if (line.contains("\"result\":\"ok\"")) {
                        h2KeysFound++;
                    }
                }
            }
            assertTrue(h1Keys > 0, "no key of the 6 lives on h1");
            assertTrue(h2KeysFound > 0, "no key of the 6 lives on h2 and exists: nothing shows h2's entries kept; reads:\n"
                    + String.join("\n", Files.readAllLines(reads)));
            long[] statsAfterReads = lakeStats(layout);
            // h1's keys read "not found" (a hit would carry a value), so every hit is one of h2's keys
            assertEquals(h2KeysFound, statsAfterReads[0] + statsAfterReads[1] - statsBeforeReads[0] - statsBeforeReads[1],
                    "each existing key of h2 is answered from LaKe's layers after h1's restart, and nothing else is");
        } finally {
            List<String> left = RackDown.down(layout.planFile(), out);
            assertEquals(List.of(), left, "rack down removed everything; its output:\n" + log);
        }
        for (String ns : plan.namespaces()) {
            assertFalse(Files.exists(RackDown.namespaceFile(ns)), ns + " is gone");
        }
        for (RackPlan.Process p : plan.processes()) {
            assertFalse(Pids.alive(p.pid(), p.startTicks()), p.name() + " (pid " + p.pid() + ") is stopped");
        }
    }

    private static RackPlan.Process current(RackPlan plan, String name) {
        return plan.currentProcesses().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    private static void assertLinearizable(Path history) throws Exception {
        Process check = new ProcessBuilder(root.resolve(".cache/bin/lincheck").toString(), "-timeout", "30s", history.toString())
                .redirectErrorStream(true).start();
        String verdict = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(check.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, check.exitValue(), "porcupine must find the history linearizable: " + verdict);
        assertTrue(verdict.contains("LINEARIZABLE"), verdict);
    }

    /** MyIngress.lake_stats read on p4sim's control port, inside the switch's namespace. */
    static long[] lakeStats(RackLayout layout) {
        String reply = Commands.run("ip", "netns", "exec", layout.switchNamespace(), "bash", "-c",
                "exec 3<>/dev/tcp/127.0.0.1/" + RackLayout.SWITCH_CONTROL_PORT
                        + " && printf 'register_read MyIngress.lake_stats\\n' >&3 && IFS= read -r -t 5 l <&3 && echo \"$l\"");
        String values = reply.substring(reply.indexOf('=') + 1).strip();
        return java.util.Arrays.stream(values.split(",")).map(String::strip).mapToLong(Long::parseLong).toArray();
    }
}
