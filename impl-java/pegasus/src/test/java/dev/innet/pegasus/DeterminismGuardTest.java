package dev.innet.pegasus;

import dev.innet.sim.guard.ForbiddenApiScanner;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * This module's protocol handlers follow the simulator's rules (docs/simulator.md): no threads, wall
 * clocks, unseeded randomness, sockets or direct file I/O. The scanner reads the compiled classes.
 */
class DeterminismGuardTest {
    @Test
    void handlerCodeUsesOnlyTheInjectedContext() {
        ForbiddenApiScanner.assertClean(Path.of("target", "classes"), "dev/innet/pegasus/");
    }
}
