package dev.innet.lake;

import dev.innet.sim.guard.ForbiddenApiScanner;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * This module's code follows the simulator's rules (docs/simulator.md): no threads, wall clocks,
 * unseeded randomness, sockets or direct file I/O, so the codec can run inside simulated nodes.
 */
class DeterminismGuardTest {
    @Test
    void moduleCodeUsesOnlyTheInjectedContext() {
        ForbiddenApiScanner.assertClean(Path.of("target", "classes"), "dev/innet/lake/");
    }
}
