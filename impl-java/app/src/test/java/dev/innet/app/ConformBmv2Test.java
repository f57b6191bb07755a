package dev.innet.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import dev.innet.rack.RackRuns;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code conform --target bmv2} without bmv2 (not installable here): the tools found on the search path are the
 * stand-ins of ptf/tests/bmv2-standin, whose simple_switch is p4sim on the interfaces it is given and whose
 * simple_switch_CLI talks to p4sim's CLI port. So everything Bmv2ReplayTarget does is exercised for real (p4c's
 * command line, the namespace and veth pairs, frames in and out over AF_PACKET, quiescence by time, control through
 * the runtime CLI, crash as kill and restart), and the replay must reach the same verdicts as on p4sim in process;
 * bmv2's own packet processing is not. Skipped where network namespaces cannot be made.
 */
class ConformBmv2Test {
    private static final Path STAND_INS = RackRuns.root().resolve("ptf/tests/bmv2-standin");

    @TempDir
    Path out;

    private int runs;

    private record Run(int code, String out, String err) {}

    private Run conform(String toolPath, String... args) {
        System.setProperty("innet.root", RackRuns.root().toString());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--simulate", "0", "--out", out.resolve("run" + (++runs)).toString()));
        ConformMain main = new ConformMain();
        main.toolSearchPath = toolPath;
        PrintStream previous = System.out;
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            int code = Cli.run("innet conform", main, all.toArray(String[]::new), System.out,
                    new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            return new Run(code, bytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(previous);
        }
    }

    private static String trace(String protocol, String name) {
        return RackRuns.root().resolve("conformance").resolve(protocol).resolve(name).toString();
    }

    /** The per-trace verdict lines and the spec-action coverage: what must not depend on the target. */
    private static List<String> verdicts(String output) {
        List<String> lines = new ArrayList<>();
        for (String l : output.split("\n")) {
            if (l.contains(".trace ") || l.startsWith("spec actions replayed") || l.matches("\\d+ traces: .*")) {
                lines.add(l.strip());
            }
        }
        return lines;
    }

    private static int switchesStarted(String output) {
        Matcher m = Pattern.compile("bmv2: (\\d+) simple_switch processes started").matcher(output);
        assertTrue(m.find(), output);
        return Integer.parseInt(m.group(1));
    }

    private static void requireNamespaces() throws Exception {
        String ns = "innet-probe-" + ProcessHandle.current().pid();
        Process add = new ProcessBuilder("ip", "netns", "add", ns).redirectErrorStream(true).start();
        add.getInputStream().readAllBytes();
        boolean ok = add.waitFor() == 0;
        if (ok) {
            Process del = new ProcessBuilder("ip", "netns", "del", ns).redirectErrorStream(true).start();
            del.getInputStream().readAllBytes();
            del.waitFor();
        }
        Assumptions.assumeTrue(ok, "network namespaces cannot be made here (needs root and ip)");
        assertTrue(Files.isRegularFile(RackRuns.root().resolve("impl-java/p4sim/target/innet-p4sim-0.1.0-SNAPSHOT.jar")),
                "the stand-in simple_switch runs p4sim's jar: mvn -pl p4sim package builds it");
    }

    @Test
    void farReachTracesGiveTheSameVerdictsOnTheBmv2DriverAsOnP4sim() throws Exception {
        requireNamespaces();
        // a passing trace, and one with a switch crash early on that stops being replayable at step 15 on p4sim
        // too (docs/conformance.md): the verdicts, not only passes, must agree
        String[] traces = {"--protocol", "farreach", "--traces", trace("farreach", "write-hit-read-hit-writeback.trace"),
            trace("farreach", "three-keys-crash-snapshots-evictions.trace")};
        Run bmv2 = conform(STAND_INS.toString(), concat(traces, "--target", "bmv2"));
        assertEquals(0, bmv2.code(), bmv2.out() + bmv2.err());
        assertTrue(bmv2.out().contains("farreach on bmv2"), bmv2.out());
        assertTrue(bmv2.out().contains("2 traces: 1 passed, 0 failed, 1 not fully replayed"), bmv2.out());
        // one switch per trace, and the crash of three-keys-crash-snapshots-evictions.trace restarted simple_switch
        assertTrue(switchesStarted(bmv2.out()) >= 3, bmv2.out());
        Run p4sim = conform(STAND_INS.toString(), traces);
        assertEquals(0, p4sim.code(), p4sim.out());
        assertEquals(verdicts(p4sim.out()), verdicts(bmv2.out()));
    }

    @Test
    void netCacheRestartTraceGivesTheSameVerdictOnTheBmv2DriverAsOnP4sim() throws Exception {
        requireNamespaces();
        String[] traces = {"--protocol", "netcache", "--traces", trace("netcache", "restart-old-record-refills-at-floor.trace")};
        Run bmv2 = conform(STAND_INS.toString(), concat(traces, "--target", "bmv2"));
        assertEquals(0, bmv2.code(), bmv2.out() + bmv2.err());
        assertTrue(bmv2.out().contains("1 traces: 1 passed, 0 failed, 0 not fully replayed"), bmv2.out());
        assertTrue(switchesStarted(bmv2.out()) >= 2, "the restart is a new simple_switch: " + bmv2.out());
        Run p4sim = conform(STAND_INS.toString(), traces);
        assertEquals(verdicts(p4sim.out()), verdicts(bmv2.out()));
    }

    @Test
    void missingToolsAreNamedAndNothingIsMade(@TempDir Path emptyDir) throws Exception {
        Run r = conform(emptyDir.toString(), "--protocol", "farreach", "--target", "bmv2");
        assertEquals(3, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("p4c (p4c-bm2-ss or p4c") && r.err().contains("simple_switch (install bmv2")
                && r.err().contains("simple_switch_CLI"), r.err());
        assertFalse(r.out().contains("traces:"), "nothing was replayed: " + r.out());
        try (var made = Files.walk(out)) {
            assertFalse(made.anyMatch(p -> p.getFileName().toString().equals("bmv2")), "no bmv2 directory was made");
        }
    }

    private static String[] concat(String[] a, String... b) {
        List<String> all = new ArrayList<>(List.of(a));
        all.addAll(List.of(b));
        return all.toArray(String[]::new);
    }
}
