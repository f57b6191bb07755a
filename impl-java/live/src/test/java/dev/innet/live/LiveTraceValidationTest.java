package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.ProtocolRegistry;
import dev.innet.protocol.RackPorts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Trace validation of live FarReach racks ({@code rack validate}): the switch's frame events (p4sim
 * --trace-frames) and the hosts' events merged and checked by TLC against FarReachTrace.tla. Each rack
 * first runs clean (p4sim must record a switchIn per request), then p4sim holds back frames to the
 * servers (so that a numbered write can reach its server after a newer one of its key): the real servers'
 * run, clean part and all, must be accepted, and a run of servers
 * seeded with server-ignores-seq (writes applied in arrival order) rejected at a server's event. Skipped
 * (not passed) where the machine forbids network namespaces.
 */
class LiveTraceValidationTest {
    /** Frames to the servers held back this long, 40 % of them: far below the clients' 200 ms timeout. */
    private static final String SERVER_PORT_FAULT = "reorder=40 hold_us=20000";
    /** Workload rounds, at most, until a numbered write reached its server after a newer one. */
    private static final int MAX_ROUNDS = 6;
    private static final Pattern SERVER_PUT = Pattern.compile(
            "\"host\":(\\d+),.*\"event\":\"serverPut\".*\"key\":\"([^\"]*)\".*\"recSeq\":(\\d+)");

    private static Path root;

    @BeforeAll
    static void requireNamespaces() {
        NetworkNamespaces.assumeAllowed("innet");
        root = Path.of(System.getProperty("innet.root")).toAbsolutePath().normalize();
    }

    private static String uniqueName(String prefix) {
        return prefix + (ProcessHandle.current().pid() % 100_000);
    }

    private record Validation(int exit, String out) {}

    @Test
    void serversUnderReorderingAreAcceptedAndServersIgnoringSequenceNumbersRejected() throws Exception {
        // the control: the real servers see the same kind of late writes and are accepted
        Validation real = validateAfterALateWrite(uniqueName("ltr"), "");
        assertEquals(RackMain.Validate.EXIT_ACCEPTED, real.exit(), real.out());
        Validation buggy = validateAfterALateWrite(uniqueName("ltb"), Protocol.SERVERS_IGNORING_SEQUENCE_NUMBERS);
        assertEquals(RackMain.Validate.EXIT_REJECTED, buggy.exit(), buggy.out());
        assertTrue(buggy.out().contains("matches event") && buggy.out().contains("(NDJSON line ")
                && buggy.out().contains(": e=serverPut"), "rejected at the server's event that kept the older write: "
                + buggy.out());
    }

    /**
     * Brings a rack up whose switch holds back frames to the servers, runs workloads of 24 keys (more than
     * the cache's 16 slots, so that writes keep reaching servers) until a numbered write reached its server
     * after a newer one of its key (without that, the seeded bug is invisible), validates, and takes it down.
     */
    private Validation validateAfterALateWrite(String name, String seededBug) throws Exception {
        RackLayout layout = up(name, seededBug);
        try {
            // warm the JVMs up first: a fresh rack's first round trips take far longer, and a held frame on top of
            // one can outlast the client's timeout (a late copy the converter would take for a lost one)
            RackRun.run(layout, 100, 24, 120_000, System.out);
            long switchIns = Files.readAllLines(layout.traceEventsOf(0)).stream()
                    .filter(l -> l.contains("\"event\":\"switchIn\"")).count();
            assertTrue(switchIns >= 100, "p4sim recorded a switchIn per client request: " + switchIns);
            for (int h : layout.servers()) {
                switchCommand(layout, "p4sim_port_fault " + RackPorts.portOf(h) + " " + SERVER_PORT_FAULT);
            }
            int rounds = 0;
            while (!aWriteArrivedAfterANewerOne(layout)) {
                if (++rounds > MAX_ROUNDS) {
                    throw new AssertionError("no numbered write reached its server after a newer one of its key in "
                            + MAX_ROUNDS + " workloads of 400 operations; the test proves nothing");
                }
                RackRun.run(layout, 400, 24, 120_000, System.out);
            }
            return validate(name);
        } finally {
            down(name);
        }
    }

    private static boolean aWriteArrivedAfterANewerOne(RackLayout layout) throws Exception {
        Map<String, Long> newest = new HashMap<>();
        for (int h : layout.servers()) {
            if (!Files.exists(layout.traceEventsOf(h))) {
                continue;
            }
            for (String line : Files.readAllLines(layout.traceEventsOf(h))) {
                Matcher m = SERVER_PUT.matcher(line);
                if (m.find()) {
                    long seq = Long.parseLong(m.group(3));
                    Long before = newest.merge(m.group(2), seq, Math::max);
                    if (before > seq) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** A FarReach rack with trace events, its state where {@code rack validate --root ROOT} looks for it. */
    private RackLayout up(String name, String seededBug) throws Exception {
        RackLayout layout = RackLayout.of(name, stateDir(name), 2, 2);
        new RackUp(new RackUp.Settings(root, layout, ProtocolRegistry.byName("farreach"), 7, 90_000,
                ProcessHandle.current().info().command().orElseThrow(),
                RackUp.absoluteClassPath(System.getProperty("java.class.path")), seededBug, true), System.out).up();
        return layout;
    }

    /** {@code ./innet rack validate --name NAME}, in this JVM; the rack's state is under the test's root. */
    private static Validation validate(String name) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int exit = Cli.run("rack", new RackMain(out, out), new String[] {"--root", root.toString(), "validate", "--name", name,
                "--timeout", "240"}, out, out);
        String text = bytes.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        return new Validation(exit, text);
    }

    private static Path stateDir(String name) {
        return root.resolve(".cache/rack").resolve(name);
    }

    private static void down(String name) throws Exception {
        List<String> left = RackDown.down(stateDir(name).resolve("plan.txt"), System.out);
        assertTrue(left.isEmpty(), "rack down left " + left);
    }

    /** A p4sim control command on its port in the switch's namespace (as the Jepsen nemeses send them). */
    private static void switchCommand(RackLayout layout, String command) throws Exception {
        String script = "exec 3<>/dev/tcp/127.0.0.1/" + RackLayout.SWITCH_CONTROL_PORT + " || exit 1; printf '%s\\n' \"$1\" >&3; "
                + "while IFS= read -r -t 5 l <&3; do echo \"$l\"; case \"$l\" in ok) exit 0;; error*) exit 1;; esac; done; exit 1";
        Process p = new ProcessBuilder("ip", "netns", "exec", layout.switchNamespace(), "bash", "-c", script, "_", command)
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), command + ": " + output);
    }
}
