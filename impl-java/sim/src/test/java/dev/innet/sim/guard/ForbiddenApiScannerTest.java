package dev.innet.sim.guard;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ForbiddenApiScannerTest {
    private static final Path TEST_CLASSES = Path.of("target", "test-classes");

    @Test
    void theTestNodesFollowTheRulesExceptTheDeliberatelyNondeterministicOne() {
        List<String> found = ForbiddenApiScanner.violations(TEST_CLASSES, "dev/innet/sim/testnodes/");
        assertEquals(List.of(
                "dev.innet.sim.testnodes.GossipNode: java.util.Random (unseeded or hidden random state: use RandomSource)",
                "dev.innet.sim.testnodes.GossipNode: java.util.Random.<init> (unseeded or hidden random state: use RandomSource)",
                "dev.innet.sim.testnodes.GossipNode: java.util.Random.nextInt (unseeded or hidden random state: use RandomSource)"),
                found);
        AssertionError e = assertThrows(AssertionError.class,
                () -> ForbiddenApiScanner.assertClean(TEST_CLASSES, "dev/innet/sim/testnodes/"));
        assertTrue(e.getMessage().contains("GossipNode"));
    }

    @Test
    void catchesClocksThreadsSocketsAndLambdas() {
        List<String> found = ForbiddenApiScanner.violations(TEST_CLASSES, "dev/innet/sim/guard/badnode/");
        String all = String.join("\n", found);
        for (String expected : List.of("java.lang.System.nanoTime", "java.lang.Thread.sleep", "java.net.DatagramSocket",
                "java.lang.System.currentTimeMillis", "java.util.concurrent.ThreadLocalRandom")) {
            assertTrue(all.contains(expected), "missed " + expected + " in:\n" + all);
        }
    }

    @Test
    void theSimulatorsOwnApiPackageIsClean() {
        // The interfaces protocol code compiles against must not themselves pull in forbidden APIs.
        Path classes = Path.of("target", "classes");
        assertEquals(List.of(), ForbiddenApiScanner.violations(classes, "dev/innet/sim/", false));
        for (String pkg : List.of("dev/innet/sim/history/", "dev/innet/sim/device/")) {
            ForbiddenApiScanner.assertClean(classes, pkg);
        }
    }
}
