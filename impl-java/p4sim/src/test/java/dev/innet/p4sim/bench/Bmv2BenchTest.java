package dev.innet.p4sim.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.bmv2.Bmv2Tools;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench p4sim}'s bmv2 measurement without bmv2 (TOOLCHAIN.md: not installable here): the stand-in tools of
 * ptf/tests/bmv2-standin, a p4c-bm2-ss that checks its arguments, a simple_switch that becomes p4sim on the
 * interface it is given, and a simple_switch_CLI that speaks to its control port. What is tested is the driver:
 * compile, start on the veth end, bring the switch to the prepared state through the CLI, measure. The workload
 * packet is a read hit, which the switch answers only from the copied state (the second test shows it).
 */
class Bmv2BenchTest {
    private static Bmv2Tools standins() throws Bmv2Tools.Missing {
        Path jar = PreparedScenarioTest.root().resolve("impl-java/p4sim/target/innet-p4sim-0.1.0-SNAPSHOT.jar");
        Assumptions.assumeTrue(Files.isRegularFile(jar), "the stand-in simple_switch runs p4sim's jar: mvn -pl p4sim package");
        return Bmv2Tools.find(PreparedScenarioTest.root().resolve("ptf/tests/bmv2-standin").toString());
    }

    private static void assumeVeth() throws Exception {
        String probe = "p4bprobe" + (ProcessHandle.current().pid() % 1000);
        Assumptions.assumeTrue(dev.innet.p4sim.ports.IpCommand.run("link", "add", probe, "type", "veth", "peer", "name", probe + "p"),
                "creating a veth pair needs CAP_NET_ADMIN");
        dev.innet.p4sim.ports.IpCommand.run("link", "del", probe);
    }

    @Test
    void bmv2IsCompiledStartedPreparedThroughItsCliAndMeasured(@TempDir Path work) throws Exception {
        assumeVeth();
        Bmv2Tools tools = standins();
        VethBench.Result r = VethBench.run(PreparedScenarioTest.farReachReadHit(),
                Bmv2UnderTest.with(tools, PreparedScenarioTest.root().resolve("p4"), work), 0.5, 0);
        assertTrue(r.switchDescription().contains("simple_switch"), r.toString());
        assertTrue(r.saturation().replies() > 0, "no read hit answered: the state did not reach the switch: " + r);
        assertTrue(r.saturation().switchCpu() > 0, "the switch process's CPU was not measured: " + r);
        assertEquals(-1, r.saturation().switchDrops(), r.toString());
        assertTrue(Files.isRegularFile(work.resolve("farreach.json")), "p4c's output is missing");
    }

    @Test
    void withoutTheCopiedStateTheSameHarnessCountsNoReply(@TempDir Path work) throws Exception {
        assumeVeth();
        Bmv2Tools tools = standins();
        PreparedScenario s = PreparedScenarioTest.farReachReadHit();
        PreparedScenario nothing = new PreparedScenario(s.program(), P4Sim.compile(s.program()).instantiate(), List.of(),
                s.workloadPort(), s.workloadFrame());
        VethBench.Result r = VethBench.run(nothing, Bmv2UnderTest.with(tools, PreparedScenarioTest.root().resolve("p4"), work),
                0.5, 0);
        assertEquals(0, r.saturation().replies(), r.toString());
    }

    @Test
    void missingToolsAreNamedAndNothingIsMeasured(@TempDir Path empty) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        Path root = PreparedScenarioTest.root();
        assertNull(Bmv2Bench.run(out, empty.toString(), root, root.resolve("p4/farreach.p4"),
                root.resolve("p4/tests/farreach.stf"), 26, 0.5, 0, null));
        String text = buf.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("bmv2: not measured") && text.contains("simple_switch"), text);
    }
}
