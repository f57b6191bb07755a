package dev.innet.distcache;

import dev.innet.sim.guard.ForbiddenApiScanner;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * This module's protocol handlers follow the simulator's rules (docs/simulator.md): no threads, wall
 * clocks, unseeded randomness, sockets or direct file I/O. The scanner reads the compiled classes, so
 * a forbidden call added anywhere in these packages fails this test.
 */
class DeterminismGuardTest {
    @Test
    void handlerCodeUsesOnlyTheInjectedContext() {
        for (String prefix : new String[] {"dev/innet/distcache/"}) {
            ForbiddenApiScanner.assertClean(Path.of("target", "classes"), prefix);
        }
    }
}
