package dev.innet.live;

import static dev.innet.live.LiveValidationRacks.down;
import static dev.innet.live.LiveValidationRacks.uniqueName;
import static dev.innet.live.LiveValidationRacks.validate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.Protocol;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Trace validation of live DistCache racks ({@code rack validate}, DistCacheTrace.tla) on its leaf-spine network of
 * five p4sim processes: each switch writes its own file of UDP frames (p4sim --trace-frames --trace-udp-frames
 * --trace-switch NAME), merged with the servers', clients' and controller's events. A clean rack (2 servers, 2
 * clients, 200 operations on 4 keys: keys are inserted into the cache switches and reads answered there) is
 * accepted; servers seeded with {@code server-single-phase} (a write applied, acknowledged and its copies updated
 * without invalidating them first, DistCache.tla's BugSinglePhase) are rejected at a server's write. Skipped (not
 * passed) where the machine forbids network namespaces.
 */
class LiveDistCacheTraceValidationTest {
    private static final List<String> SWITCHES = List.of("spine1", "spine2", "leaf1", "leaf2", "ctor");

    @BeforeAll
    static void requireNamespaces() {
        NetworkNamespaces.assumeAllowed("innet");
    }

    @Test
    void aCleanRunIsAcceptedAndServersSkippingPhaseOneRejected() throws Exception {
        LiveValidationRacks.Validation real = validateARun(uniqueName("ldr"), "", 200, true);
        assertEquals(RackMain.Validate.EXIT_ACCEPTED, real.exit(), real.out());
        LiveValidationRacks.Validation buggy = validateARun(uniqueName("ldb"), Protocol.SERVERS_SKIPPING_PHASE_ONE, 60, false);
        assertEquals(RackMain.Validate.EXIT_REJECTED, buggy.exit(), buggy.out());
        assertTrue(buggy.out().contains("matches event") && buggy.out().contains(": e=serverWrite")
                && buggy.out().contains("phaseOne=false"), "rejected at a write applied without phase 1: " + buggy.out());
    }

    private static LiveValidationRacks.Validation validateARun(String name, String seededBug, int operations,
            boolean requireInsertions)
            throws Exception {
        RackLayout layout = LiveValidationRacks.up(name, "distcache", 2, 2, seededBug);
        try {
            RackRun.run(layout, operations, 4, 120_000, System.out);
            for (String sw : SWITCHES) {
                long steps = Files.readAllLines(layout.switchTraceEventsOf(sw)).stream()
                        .filter(l -> l.contains("\"event\":\"switchUdpIn\"") && l.endsWith(",\"switch\":\"" + sw + "\"}")).count();
                assertTrue(steps > 0, "switch " + sw + " recorded its steps, naming itself: " + steps);
            }
            if (requireInsertions) {
                long inserts = Files.readAllLines(layout.traceEventsOf(layout.controllerHost())).stream()
                        .filter(l -> l.contains("\"event\":\"dcCacheInsert\"")).count();
                assertTrue(inserts > 0, "the controller inserted no key into a cache switch: the run checks no cache");
            }
            return validate(name);
        } finally {
            down(name);
        }
    }
}
