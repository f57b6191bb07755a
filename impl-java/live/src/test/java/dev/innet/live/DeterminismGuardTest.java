package dev.innet.live;

import dev.innet.sim.guard.ForbiddenApiScanner;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The one node this module adds, the workload client, follows the simulator's rules like protocol
 * code (docs/simulator.md): it touches the world only through its context. The rest of the module is
 * the edge (processes, sockets, files) and is not scanned.
 */
class DeterminismGuardTest {
    @Test
    void theWorkloadNodeUsesOnlyTheInjectedContext() {
        ForbiddenApiScanner.assertClean(Path.of("target", "classes"), "dev/innet/live/workload/");
    }
}
