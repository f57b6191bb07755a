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
        new RackUp(new RackUp.Settings(root(), layout, ProtocolRegistry.byName(protocol), 7, 90_000,
                ProcessHandle.current().info().command().orElseThrow(),
                RackUp.absoluteClassPath(System.getProperty("java.class.path")), seededBug, true), System.out).up();
        return layout;
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
