package dev.innet.live;

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
        // rejected at the serverWrite that applied the older version
        LiveValidationRacks.lateWritesAcceptedAndServersIgnoringSequenceNumbersRejected("pegasus", 6, SERVER_WRITE,
                ": e=serverWrite");
    }
}
