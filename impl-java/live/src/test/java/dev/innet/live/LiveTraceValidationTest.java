package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static dev.innet.live.LiveValidationRacks.down;
import static dev.innet.live.LiveValidationRacks.switchCommand;
import static dev.innet.live.LiveValidationRacks.uniqueName;
import static dev.innet.live.LiveValidationRacks.validate;

import dev.innet.protocol.Protocol;
import dev.innet.protocol.RackPorts;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
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
    /** Frames to the servers held back this long, 40 % of them: far below the clients' 200 ms timeout. */
    private static final String SERVER_PORT_FAULT = "reorder=40 hold_us=20000";
    /** Workload rounds, at most, until a numbered write reached its server after a newer one. */
    private static final int MAX_ROUNDS = 6;
    private static final Pattern SERVER_PUT = Pattern.compile(
            "\"host\":(\\d+),.*\"event\":\"serverPut\".*\"key\":\"([^\"]*)\".*\"recSeq\":(\\d+)");

    @BeforeAll
    static void requireNamespaces() {
        NetworkNamespaces.assumeAllowed("innet");
    }

    @Test
    void serversUnderReorderingAreAcceptedAndServersIgnoringSequenceNumbersRejected() throws Exception {
        // the control: the real servers see the same kind of late writes and are accepted
        LiveValidationRacks.Validation real = validateAfterALateWrite(uniqueName("ltr"), "");
        assertEquals(RackMain.Validate.EXIT_ACCEPTED, real.exit(), real.out());
        LiveValidationRacks.Validation buggy = validateAfterALateWrite(uniqueName("ltb"), Protocol.SERVERS_IGNORING_SEQUENCE_NUMBERS);
        assertEquals(RackMain.Validate.EXIT_REJECTED, buggy.exit(), buggy.out());
        assertTrue(buggy.out().contains("matches event") && buggy.out().contains("(NDJSON line ")
                && buggy.out().contains(": e=serverPut"), "rejected at the server's event that kept the older write: "
                + buggy.out());
    }

    /**
     * Brings a rack up whose switch holds back frames to the servers, runs workloads of 24 keys (more than
     * the cache's 16 slots, so that writes keep reaching servers) until a numbered write reached its server
     * after a newer one of its key (without that, the seeded bug is invisible), validates, and takes it down.
     */
    private LiveValidationRacks.Validation validateAfterALateWrite(String name, String seededBug) throws Exception {
        RackLayout layout = up(name, seededBug);
        try {
            // warm the JVMs up first: a fresh rack's first round trips take far longer, and a held frame on top of
            // one can outlast the client's timeout (a late copy the converter would take for a lost one)
            RackRun.run(layout, 100, 24, 120_000, System.out);
            long switchIns = Files.readAllLines(layout.traceEventsOf(0)).stream()
                    .filter(l -> l.contains("\"event\":\"switchIn\"")).count();
            assertTrue(switchIns >= 100, "p4sim recorded a switchIn per client request: " + switchIns);
            for (int h : layout.servers()) {
                switchCommand(layout, "p4sim_port_fault " + RackPorts.portOf(h) + " " + SERVER_PORT_FAULT);
            }
            int rounds = 0;
            while (!aWriteArrivedAfterANewerOne(layout)) {
                if (++rounds > MAX_ROUNDS) {
                    throw new AssertionError("no numbered write reached its server after a newer one of its key in "
                            + MAX_ROUNDS + " workloads of 400 operations; the test proves nothing");
                }
                RackRun.run(layout, 400, 24, 120_000, System.out);
            }
            return validate(name);
        } finally {
            down(name);
        }
    }

    private static boolean aWriteArrivedAfterANewerOne(RackLayout layout) throws Exception {
        Map<String, Long> newest = new HashMap<>();
        for (int h : layout.servers()) {
            if (!Files.exists(layout.traceEventsOf(h))) {
                continue;
            }
            for (String line : Files.readAllLines(layout.traceEventsOf(h))) {
                Matcher m = SERVER_PUT.matcher(line);
                if (m.find()) {
                    long seq = Long.parseLong(m.group(3));
                    Long before = newest.merge(m.group(2), seq, Math::max);
                    if (before > seq) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** A FarReach rack with trace events, its state where {@code rack validate --root ROOT} looks for it. */
    private RackLayout up(String name, String seededBug) throws Exception {
        return LiveValidationRacks.up(name, "farreach", 2, 2, seededBug);
    }
}
