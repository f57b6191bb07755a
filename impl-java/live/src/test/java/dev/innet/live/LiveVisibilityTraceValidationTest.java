package dev.innet.live;

import static dev.innet.live.LiveValidationRacks.down;
import static dev.innet.live.LiveValidationRacks.switchCommand;
import static dev.innet.live.LiveValidationRacks.uniqueName;
import static dev.innet.live.LiveValidationRacks.validate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.Protocol;
import dev.innet.protocol.RackPorts;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Trace validation of live visibility racks ({@code rack validate}, VisibilityTrace.tla): the switch's UDP frames
 * (p4sim --trace-frames --trace-udp-frames: the switch's own steps) and the nodes' events. Each rack (metadata node
 * h1, data nodes h2 and h3, two clients) runs 100 operations clean, then p4sim duplicates 30 % of the frames to the
 * data nodes, so that a data node receives some write twice: the real data nodes answer the copy with the position
 * they wrote and the whole run is accepted; data nodes seeded with {@code data-node-restamps} (a copy appended again
 * under a new timestamp, Visibility.tla's BugRestamp) are rejected at a data node's write. Skipped (not passed) where
 * the machine forbids network namespaces.
 */
class LiveVisibilityTraceValidationTest {
    private static final Pattern DN_WRITE = Pattern.compile("\"event\":\"visDnWrite\",\"client\":(\\d+),\"reqId\":(\\d+),");

    @BeforeAll
    static void requireNamespaces() {
        NetworkNamespaces.assumeAllowed("innet");
    }

    @Test
    void duplicatedWritesAreAcceptedAndDataNodesRestampingThemRejected() throws Exception {
        LiveValidationRacks.Validation real = validateWithDuplicatedWrites(uniqueName("lvr"), "");
        assertEquals(RackMain.Validate.EXIT_ACCEPTED, real.exit(), real.out());
        LiveValidationRacks.Validation buggy = validateWithDuplicatedWrites(uniqueName("lvb"),
                Protocol.DATA_NODES_RESTAMPING_RETRIES);
        assertEquals(RackMain.Validate.EXIT_REJECTED, buggy.exit(), buggy.out());
        assertTrue(buggy.out().contains("matches event") && buggy.out().contains(": e=dnWrite"),
                "rejected at the data node's second write of a request: " + buggy.out());
    }

    private static LiveValidationRacks.Validation validateWithDuplicatedWrites(String name, String seededBug) throws Exception {
        RackLayout layout = LiveValidationRacks.up(name, "visibility", 3, 2, seededBug);
        try {
            RackRun.run(layout, 100, 6, 120_000, System.out);
            long steps = Files.readAllLines(layout.traceEventsOf(0)).stream()
                    .filter(l -> l.contains("\"event\":\"switchUdpIn\"")).count();
            assertTrue(steps >= 200, "p4sim recorded the frames of every request and reply: " + steps);
            for (int dataNode : layout.servers().subList(1, layout.servers().size())) {
                switchCommand(layout, "p4sim_port_fault " + RackPorts.portOf(dataNode) + " dup=30");
            }
            RackRun.run(layout, 300, 6, 120_000, System.out);
            assertTrue(aDataNodeWroteARequestTwice(layout), "no write reached a data node twice: the test proves nothing");
            return validate(name);
        } finally {
            down(name);
        }
    }

    private static boolean aDataNodeWroteARequestTwice(RackLayout layout) throws Exception {
        for (int dataNode : layout.servers().subList(1, layout.servers().size())) {
            Set<String> seen = new HashSet<>();
            for (String line : Files.readAllLines(layout.traceEventsOf(dataNode))) {
                Matcher m = DN_WRITE.matcher(line);
                if (m.find() && !seen.add(m.group(1) + "/" + m.group(2))) {
                    return true;
                }
            }
        }
        return false;
    }
}
