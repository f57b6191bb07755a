package dev.innet.live;

import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Trace validation of live FarReach racks ({@code rack validate}): the switch's frame events (p4sim
 * --trace-frames) and the hosts' events merged and checked by TLC against FarReachTrace.tla. Each rack
 * first runs clean (p4sim must record a switchIn per request), then p4sim holds back frames to the
 * servers (so that a numbered write can reach its server after a newer one of its key): the real servers'
 * run, clean part and all, must be accepted, and a run of servers
 * seeded with server-ignores-seq (writes applied in arrival order) rejected at a server's event. Skipped
 * (not passed) where the machine forbids network namespaces.
 */
class LiveTraceValidationTest {
    private static final Pattern SERVER_PUT = Pattern.compile(
            "\"host\":(?<host>\\d+),.*\"event\":\"serverPut\".*\"key\":\"(?<key>[^\"]*)\".*\"recSeq\":(?<seq>\\d+)");

    @BeforeAll
    static void requireNamespaces() {
        NetworkNamespaces.assumeAllowed("innet");
    }

    @Test
    void serversUnderReorderingAreAcceptedAndServersIgnoringSequenceNumbersRejected() throws Exception {
        // the control: the real servers see the same kind of late writes and are accepted; the seeded servers are
        // rejected at the serverPut that kept the older write
        LiveValidationRacks.lateWritesAcceptedAndServersIgnoringSequenceNumbersRejected("farreach", 24, SERVER_PUT,
                ": e=serverPut");
    }
}
