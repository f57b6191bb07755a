package dev.innet.live;

import static dev.innet.live.LiveValidationRacks.uniqueName;
import static dev.innet.live.LiveValidationRacks.validateAfterALateWrite;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.Protocol;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Trace validation of live Pegasus racks ({@code rack validate}, PegasusTrace.tla): the switch's UDP frames
 * (p4sim --trace-frames --trace-udp-frames: the directory's steps, the versions it stamps, the replies it passes or
 * drops), the servers' and the controller's events. Each rack (2 servers, 2 clients, 6 keys, so the controller
 * replicates hot keys) runs 100 operations clean, then p4sim holds back frames to the servers until a write reached
 * its server after a newer one of its key: the real servers keep the newer version ("superseded") and the whole
 * run is accepted; servers seeded with {@code server-ignores-seq} (every version accepted, Pegasus.tla's
 * BugAcceptLower) are rejected at the serverWrite that applied the older write. Skipped (not passed) where the
 * machine forbids network namespaces.
 */
class LivePegasusTraceValidationTest {
    private static final Pattern SERVER_WRITE = Pattern.compile(
            "\"host\":(?<host>\\d+),.*\"event\":\"pegServerWrite\".*\"key\":\"(?<key>[^\"]*)\",\"ver\":(?<seq>\\d+),");

    @BeforeAll
    static void requireNamespaces() {
        NetworkNamespaces.assumeAllowed("innet");
    }

    @Test
    void serversUnderReorderingAreAcceptedAndServersAcceptingLowerVersionsRejected() throws Exception {
        LiveValidationRacks.Validation real = validateAfterALateWrite(uniqueName("lpr"), "pegasus", 6, "", SERVER_WRITE);
        assertEquals(RackMain.Validate.EXIT_ACCEPTED, real.exit(), real.out());
        LiveValidationRacks.Validation buggy = validateAfterALateWrite(uniqueName("lpb"), "pegasus", 6,
                Protocol.SERVERS_IGNORING_SEQUENCE_NUMBERS, SERVER_WRITE);
        assertEquals(RackMain.Validate.EXIT_REJECTED, buggy.exit(), buggy.out());
        assertTrue(buggy.out().contains("matches event") && buggy.out().contains(": e=serverWrite")
                && buggy.out().contains("applied=true"), "rejected at the server's write that applied the older version: "
                + buggy.out());
    }
}
