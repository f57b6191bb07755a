package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import dev.innet.protocol.ProtocolRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * What the live trace-validation tests share: racks with trace events under the test's repository root (where
 * {@code rack validate --root ROOT} looks), {@code rack validate} run in the test's JVM, p4sim control commands,
 * and {@code rack down}.
 */
final class LiveValidationRacks {
    private LiveValidationRacks() {
    }

    /** What {@code rack validate} answered. */
    record Validation(int exit, String out) {
    }

    /** The repository root the tests run against (Maven passes it). */
    static Path root() {
        return Path.of(System.getProperty("innet.root")).toAbsolutePath().normalize();
    }

    /** A rack name unique to this test JVM. */
    static String uniqueName(String prefix) {
        return prefix + (ProcessHandle.current().pid() % 100_000);
    }

    /** Brings a rack of {@code protocol} up with trace events (and the servers' {@code seededBug}, or ""). */
    static RackLayout up(String name, String protocol, int servers, int clients, String seededBug) throws Exception {
        RackLayout layout = RackLayout.of(name, stateDir(name), servers, clients);
        new RackUp(settings(layout, protocol, seededBug), System.out).up();
        return layout;
    }

    /** As {@link #up(String, String, int, int, String)}, in the protocol's campaign shape (rack up --campaign-shape). */
    static RackLayout upInCampaignShape(String name, String protocol, int servers, int clients) throws Exception {
        RackLayout layout = RackLayout.of(name, stateDir(name), servers, clients);
        RackUp.Settings s = settings(layout, protocol, "");
        new RackUp(new RackUp.Settings(s.repositoryRoot(), layout, s.protocol(), s.seed(),
                s.healthTimeoutMillis(), s.javaBinary(), s.classPath(), "", true, null, false, true), System.out).up();
        return layout;
    }

    /** The settings of a rack of {@code protocol} with trace events, run by this JVM's java and classpath. */
    static RackUp.Settings settings(RackLayout layout, String protocol, String seededBug) {
        return new RackUp.Settings(root(), layout, ProtocolRegistry.byName(protocol), 7, 90_000,
                ProcessHandle.current().info().command().orElseThrow(),
                RackUp.absoluteClassPath(System.getProperty("java.class.path")), seededBug, true);
    }

    /** The process the rack's plan records now under {@code name} (the newest start of it). */
    static RackPlan.Process current(RackLayout layout, String name) throws java.io.IOException {
        return RackPlan.read(layout.planFile()).currentProcesses().stream().filter(p -> p.name().equals(name))
                .findFirst().orElseThrow();
    }

    /** {@code ./innet rack validate --name NAME}, in this JVM. */
    static Validation validate(String name) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int exit = Cli.run("rack", new RackMain(out, out), new String[] {"--root", root().toString(), "validate", "--name", name,
                "--timeout", "240"}, out, out);
        String text = bytes.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        return new Validation(exit, text);
    }

    static Path stateDir(String name) {
        return root().resolve(".cache/rack").resolve(name);
    }

    /** {@code rack down}: nothing the rack made may be left. */
    static void down(String name) throws Exception {
        List<String> left = RackDown.down(stateDir(name).resolve("plan.txt"), System.out);
        assertTrue(left.isEmpty(), "rack down left " + left);
    }

    /** Frames to the servers held back this long, 40 % of them: far below the clients' 200 ms timeout. */
    static final String SERVER_PORT_FAULT = "reorder=40 hold_us=20000";
    /** Workload rounds, at most, until a numbered write reached its server after a newer one. */
    static final int MAX_ROUNDS = 6;

    /**
     * Brings a rack up, runs 100 operations clean (warming the JVMs up: a fresh rack's first round trips take far
     * longer, and a held frame on top of one can outlast the client's timeout, a late copy the converters take for a
     * lost one), then has the switch hold back frames to the servers and runs rounds of 400 operations until a
     * numbered write reached its server after a newer one of its key (without that, a server ignoring the numbers
     * is invisible), validates, and takes the rack down.
     *
     * @param serverWrite a server's write event, with groups {@code host}, {@code key} and {@code seq} (the number
     *                    the switch gave the write)
     */
    static Validation validateAfterALateWrite(String name, String protocol, int keys, String seededBug,
            java.util.regex.Pattern serverWrite) throws Exception {
        RackLayout layout = up(name, protocol, 2, 2, seededBug);
        try {
            RackRun.run(layout, 100, keys, 120_000, System.out);
            long frames = java.nio.file.Files.readAllLines(layout.traceEventsOf(0)).stream()
                    .filter(l -> l.contains("\"event\":\"switchIn\"") || l.contains("\"event\":\"switchUdpIn\"")).count();
            assertTrue(frames >= 100, "p4sim recorded a frame event per client request: " + frames);
            for (int h : layout.servers()) {
                switchCommand(layout, "p4sim_port_fault " + dev.innet.protocol.RackPorts.portOf(h) + " " + SERVER_PORT_FAULT);
            }
            int rounds = 0;
            while (!aWriteArrivedAfterANewerOne(layout, serverWrite)) {
                if (++rounds > MAX_ROUNDS) {
                    throw new AssertionError("no numbered write reached its server after a newer one of its key in "
                            + MAX_ROUNDS + " workloads of 400 operations; the test proves nothing");
                }
                RackRun.run(layout, 400, keys, 120_000, System.out);
            }
            return validate(name);
        } finally {
            down(name);
        }
    }

    /**
     * The real servers' run with late writes ({@link #validateAfterALateWrite}) must be accepted, and the run of servers
     * seeded with {@code server-ignores-seq} rejected at a server's write event whose converted line contains
     * {@code rejectedAt} (e.g. ": e=serverPut").
     */
    static void lateWritesAcceptedAndServersIgnoringSequenceNumbersRejected(String protocol, int keys,
            java.util.regex.Pattern serverWrite, String rejectedAt) throws Exception {
        String prefix = "l" + protocol.charAt(0);
        Validation real = validateAfterALateWrite(uniqueName(prefix + "r"), protocol, keys, "", serverWrite);
        assertEquals(RackMain.Validate.EXIT_ACCEPTED, real.exit(), real.out());
        Validation buggy = validateAfterALateWrite(uniqueName(prefix + "b"), protocol, keys,
                dev.innet.protocol.Protocol.SERVERS_IGNORING_SEQUENCE_NUMBERS, serverWrite);
        assertEquals(RackMain.Validate.EXIT_REJECTED, buggy.exit(), buggy.out());
        assertTrue(buggy.out().contains("matches event") && buggy.out().contains("(NDJSON line ")
                && buggy.out().contains(rejectedAt), "rejected at the server's event that kept the older write: " + buggy.out());
    }

    private static boolean aWriteArrivedAfterANewerOne(RackLayout layout, java.util.regex.Pattern serverWrite)
            throws Exception {
        java.util.Map<String, Long> newest = new java.util.HashMap<>();
        for (int h : layout.servers()) {
            if (!java.nio.file.Files.exists(layout.traceEventsOf(h))) {
                continue;
            }
            for (String line : java.nio.file.Files.readAllLines(layout.traceEventsOf(h))) {
                java.util.regex.Matcher m = serverWrite.matcher(line);
                if (m.find()) {
                    long seq = Long.parseLong(m.group("seq"));
                    Long before = newest.merge(m.group("host") + "/" + m.group("key"), seq, Math::max);
                    if (before > seq) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** A p4sim control command on its port in the switch's namespace (as the Jepsen nemeses send them). */
    static void switchCommand(RackLayout layout, int controlPort, String command) throws Exception {
        String script = "exec 3<>/dev/tcp/127.0.0.1/" + controlPort + " || exit 1; printf '%s\\n' \"$1\" >&3; "
                + "while IFS= read -r -t 5 l <&3; do echo \"$l\"; case \"$l\" in ok) exit 0;; error*) exit 1;; esac; done; exit 1";
        Process p = new ProcessBuilder("ip", "netns", "exec", layout.switchNamespace(), "bash", "-c", script, "_", command)
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), command + ": " + output);
    }

    /** The same on a one-switch rack's control port. */
    static void switchCommand(RackLayout layout, String command) throws Exception {
        switchCommand(layout, RackLayout.SWITCH_CONTROL_PORT, command);
    }
}
