package dev.innet.p4sim.stf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stf --target bmv2} without bmv2 (TOOLCHAIN.md: not installable here), against the stand-ins of
 * ptf/tests/bmv2-standin: p4c-bm2-ss checks its arguments, simple_switch becomes p4sim on the veth ends it is
 * given, simple_switch_CLI speaks to that switch's control port. What is tested is the driver: the cabling, the
 * script's commands through the CLI, its packets over the veths, the outputs matched at the end. A repository
 * program's scenario passes; the same scenario with one expected byte changed fails at that line.
 */
class Bmv2StfTest {
    private record Run(int code, String out, String err) { }

    private static Path root() {
        String r = System.getProperty("innet.root");
        return Path.of(r == null ? "../.." : r).toAbsolutePath().normalize();
    }

    private static String standins() {
        Path jar = root().resolve("impl-java/p4sim/target/innet-p4sim-0.1.0-SNAPSHOT.jar");
        Assumptions.assumeTrue(Files.isRegularFile(jar), "the stand-in simple_switch runs p4sim's jar: mvn -pl p4sim package");
        Assumptions.assumeTrue(new java.io.File("/proc/sys/net/ipv6/conf").isDirectory() && canMakeVeth(),
                "cabling the switch needs CAP_NET_ADMIN");
        return root().resolve("ptf/tests/bmv2-standin").toString();
    }

    private static boolean canMakeVeth() {
        try {
            String probe = "isfprobe" + (ProcessHandle.current().pid() % 1000);
            Process p = new ProcessBuilder("ip", "link", "add", probe, "type", "veth", "peer", "name", probe + "p")
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            if (p.waitFor() != 0) {
                return false;
            }
            new ProcessBuilder("ip", "link", "del", probe).start().waitFor();
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private static Run run(Path program, Path script, String path) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Bmv2Target.run(program, script, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), path);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aRepositoryScenarioPassesOnTheStandInBmv2() {
        String tools = standins();
        Run r = run(root().resolve("p4/nocache.p4"), root().resolve("p4/tests/nocache.stf"), tools);
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("pass (bmv2: "), r.out());
    }

    @Test
    void aWrongExpectationFailsAtItsLine(@TempDir Path dir) throws Exception {
        String tools = standins();
        java.util.List<String> lines = Files.readAllLines(root().resolve("p4/tests/nocache.stf"));
        int changed = -1;
        for (int i = 0; i < lines.size() && changed < 0; i++) {
            String l = lines.get(i);
            if (l.startsWith("expect ") && l.split("\\s+").length > 2) {
                String[] w = l.split("\\s+", 3);
                String data = w[2].replaceAll("\\s+", "");
                // the last hex digit of the expected frame, flipped
                char last = data.charAt(data.length() - 1) == '$' ? data.charAt(data.length() - 2) : data.charAt(data.length() - 1);
                int at = data.lastIndexOf(last);
                String flipped = data.substring(0, at) + (last == '0' ? '1' : '0') + data.substring(at + 1);
                lines.set(i, w[0] + " " + w[1] + " " + flipped);
                changed = i + 1;
            }
        }
        assertTrue(changed > 0, "nocache.stf has no expect line with data");
        Path script = Files.write(dir.resolve("nocache-wrong.stf"), lines);
        Run r = run(root().resolve("p4/nocache.p4"), script, tools);
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(":" + changed + ": packet on port"), "the failure must name line " + changed + ": " + r.err());
    }
}
