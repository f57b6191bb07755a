package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceEventsMergeTest {
    @TempDir
    Path dir;

    private Path file(String name, String... lines) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, List.of(lines));
        return p;
    }

    @Test
    void eventsOfSeveralHostsComeOutInTimeOrderTiesInHostOrder() throws Exception {
        Path server = file("h1.ndjson",
                "{\"time\":20,\"host\":1,\"incarnation\":0,\"event\":\"serverPut\"}",
                "{\"time\":40,\"host\":1,\"incarnation\":1,\"event\":\"serverPut\"}");
        Path client = file("h3.ndjson",
                "{\"time\":10,\"host\":3,\"incarnation\":0,\"event\":\"clientWrite\"}",
                "",
                "{\"time\":40,\"host\":3,\"incarnation\":0,\"event\":\"clientReply\"}");
        List<String> merged = TraceEventsMerge.merge(List.of(server, client));
        assertEquals(4, merged.size());
        assertTrue(merged.get(0).contains("clientWrite"), merged.toString());
        assertTrue(merged.get(1).contains("\"time\":20"), merged.toString());
        // equal times: the earlier file (lower host) first
        assertTrue(merged.get(2).contains("\"host\":1") && merged.get(3).contains("\"host\":3"), merged.toString());
    }

    @Test
    void theSwitchsFileComesFirstThenTheHostsInHostOrder() throws Exception {
        RackLayout layout = RackLayout.of("m1", dir, 2, 2);
        Files.createDirectories(layout.traceEventsOf(0).getParent());
        for (int h : List.of(3, 1, 0)) {
            Files.writeString(layout.traceEventsOf(h), "");
        }
        assertEquals(List.of(layout.traceEventsOf(0), layout.traceEventsOf(1), layout.traceEventsOf(3)),
                TraceEventsMerge.filesOf(layout), "p4sim's --trace-frames file is host 0's");
    }

    /**
     * A network of several switches (DistCache: one p4sim each, --trace-switch) writes one file per switch, all host
     * 0's: they come right after where a one-switch rack's would be, by switch name, and a step of one switch (its
     * input and outputs share a stamp) stays together in the merge even when another switch stamped a step at the
     * same time.
     */
    @Test
    void theFilesOfSeveralSwitchesComeFirstAndEachStepStaysTogether() throws Exception {
        RackLayout layout = RackLayout.of("m2", dir, 2, 2);
        Files.createDirectories(layout.traceEventsOf(0).getParent());
        Files.writeString(layout.traceEventsOf(1), "{\"time\":6,\"host\":1,\"incarnation\":0,\"event\":\"dcServerWrite\"}\n");
        Files.writeString(layout.switchTraceEventsOf("spine1"), "{\"time\":5,\"host\":0,\"incarnation\":0,\"event\":\"switchUdpIn\",\"switch\":\"spine1\"}\n"
                + "{\"time\":5,\"host\":0,\"incarnation\":0,\"event\":\"switchUdpOut\",\"switch\":\"spine1\"}\n");
        Files.writeString(layout.switchTraceEventsOf("ctor"), "{\"time\":5,\"host\":0,\"incarnation\":0,\"event\":\"switchUdpIn\",\"switch\":\"ctor\"}\n"
                + "{\"time\":5,\"host\":0,\"incarnation\":0,\"event\":\"switchUdpOut\",\"switch\":\"ctor\"}\n");
        List<Path> files = TraceEventsMerge.filesOf(layout);
        assertEquals(List.of(layout.switchTraceEventsOf("ctor"), layout.switchTraceEventsOf("spine1"), layout.traceEventsOf(1)),
                files);
        List<String> merged = TraceEventsMerge.merge(files);
        assertEquals(5, merged.size());
        assertTrue(merged.get(0).contains("switchUdpIn") && merged.get(0).contains("ctor")
                && merged.get(1).contains("switchUdpOut") && merged.get(1).contains("ctor"), merged.toString());
        assertTrue(merged.get(2).contains("switchUdpIn") && merged.get(3).contains("switchUdpOut")
                && merged.get(3).contains("spine1"), merged.toString());
        assertTrue(merged.get(4).contains("dcServerWrite"), merged.toString());
    }

    @Test
    void aLineThatIsNotAnEventIsRefusedNamingFileAndLine() throws Exception {
        Path torn = file("h2.ndjson", "{\"time\":5,\"host\":2,\"incarnation\":0,\"event\":\"serverGet\"}",
                "{\"time\":7,\"host\":2,\"incar");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TraceEventsMerge.merge(List.of(torn)));
        assertTrue(e.getMessage().contains("h2.ndjson:2"), e.getMessage());
    }

    /**
     * The switch processed a client's read (switchIn at 30) after the controller's write made its step visible
     * (switchControl at 25) but before the controller stamped its event (40): the merge puts the step at 25, before
     * the read, and drops the switchControl lines. A controller event with no write since its previous one keeps
     * its stamp, so does one whose last write is more than the window before it (a hot report received 10 ms
     * after a counter reset), and so does a host's event.
     */
    @Test
    void aControllerStepIsPlacedAtItsLastControlWrite() throws Exception {
        Path sw = file("h0.ndjson",
                "{\"time\":5,\"host\":0,\"incarnation\":0,\"event\":\"switchControl\",\"command\":\"table_add\"}",
                "{\"time\":25,\"host\":0,\"incarnation\":0,\"event\":\"switchControl\",\"command\":\"register_write\"}",
                "{\"time\":30,\"host\":0,\"incarnation\":0,\"event\":\"switchIn\",\"client\":3,\"reqId\":1,\"op\":1}",
                // an untraced write (a counter reset) long before the next event, which made none of its own
                "{\"time\":62,\"host\":0,\"incarnation\":0,\"event\":\"switchControl\",\"command\":\"register_reset\"}",
                "{\"time\":65,\"host\":0,\"incarnation\":0,\"event\":\"switchOut\",\"client\":3,\"reqId\":1,\"op\":129}");
        Path controller = file("h254.ndjson",
                "{\"time\":10,\"host\":254,\"incarnation\":0,\"event\":\"admitInstall\"}",
                "{\"time\":40,\"host\":254,\"incarnation\":0,\"event\":\"admitValidate\"}",
                "{\"time\":60,\"host\":254,\"incarnation\":0,\"event\":\"snapshotStart\"}",
                "{\"time\":10000070,\"host\":254,\"incarnation\":0,\"event\":\"hot\"}");
        Path client = file("h3.ndjson", "{\"time\":20,\"host\":3,\"incarnation\":0,\"event\":\"clientRead\"}");
        List<String> merged = TraceEventsMerge.merge(List.of(sw, controller, client));
        assertEquals(List.of(
                "{\"time\":5,\"host\":254,\"incarnation\":0,\"event\":\"admitInstall\"}",
                "{\"time\":20,\"host\":3,\"incarnation\":0,\"event\":\"clientRead\"}",
                "{\"time\":25,\"host\":254,\"incarnation\":0,\"event\":\"admitValidate\"}",
                "{\"time\":30,\"host\":0,\"incarnation\":0,\"event\":\"switchIn\",\"client\":3,\"reqId\":1,\"op\":1}",
                "{\"time\":60,\"host\":254,\"incarnation\":0,\"event\":\"snapshotStart\"}",
                "{\"time\":65,\"host\":0,\"incarnation\":0,\"event\":\"switchOut\",\"client\":3,\"reqId\":1,\"op\":129}",
                "{\"time\":10000070,\"host\":254,\"incarnation\":0,\"event\":\"hot\"}"), merged);
    }

    /**
     * The flake CI met on a loaded machine: the controller's control round trip took 40 ms, longer than the
     * window a line without a handler start allows, so an admission stayed after a write hit that already saw it.
     * A controller line that says when its handler began (stepStart) is placed at its handler's last write however
     * long ago that was; a write before its handler began (an untraced counter reset) is not its own, so a hot
     * report received later keeps its stamp. The merge removes the field.
     */
    @Test
    void aControllerStepThatSaysWhenItsHandlerBeganIsPlacedAtItsWriteHoweverSlowTheCall() throws Exception {
        Path sw = file("h0.ndjson",
                "{\"time\":1000000,\"host\":0,\"incarnation\":0,\"event\":\"switchControl\",\"command\":\"register_write\"}",
                "{\"time\":2000000,\"host\":0,\"incarnation\":0,\"event\":\"switchIn\",\"client\":3,\"reqId\":1,\"op\":3}",
                "{\"time\":50000000,\"host\":0,\"incarnation\":0,\"event\":\"switchControl\",\"command\":\"register_reset\"}",
                "{\"time\":50000100,\"host\":0,\"incarnation\":0,\"event\":\"switchOut\",\"client\":3,\"reqId\":2,\"op\":129}");
        Path controller = file("h254.ndjson",
                "{\"time\":41000000,\"host\":254,\"incarnation\":0,\"event\":\"admitInstall\",\"key\":\"user0\",\"stepStart\":900000}",
                "{\"time\":50000200,\"host\":254,\"incarnation\":0,\"event\":\"hot\",\"key\":\"user1\",\"stepStart\":50000150}");
        List<String> merged = TraceEventsMerge.merge(List.of(sw, controller));
        assertEquals(List.of(
                "{\"time\":1000000,\"host\":254,\"incarnation\":0,\"event\":\"admitInstall\",\"key\":\"user0\"}",
                "{\"time\":2000000,\"host\":0,\"incarnation\":0,\"event\":\"switchIn\",\"client\":3,\"reqId\":1,\"op\":3}",
                "{\"time\":50000100,\"host\":0,\"incarnation\":0,\"event\":\"switchOut\",\"client\":3,\"reqId\":2,\"op\":129}",
                "{\"time\":50000200,\"host\":254,\"incarnation\":0,\"event\":\"hot\",\"key\":\"user1\"}"), merged);
        // without the handler's start, the same slow step is left where the controller stamped it (the old guess)
        Path guessed = file("h254-old.ndjson",
                "{\"time\":41000000,\"host\":254,\"incarnation\":0,\"event\":\"admitInstall\",\"key\":\"user0\"}");
        assertEquals("{\"time\":41000000,\"host\":254,\"incarnation\":0,\"event\":\"admitInstall\",\"key\":\"user0\"}",
                TraceEventsMerge.merge(List.of(sw, guessed)).get(1));
    }

    /**
     * The race a running rack's validation lost: the controller's admitFloor (an answer to the server's probe reply)
     * was in its file, the server's serverProbe was written after the server's file had been read. With the cut,
     * events stamped after it are left out, a controller step whose switch write came before the cut is kept with
     * the frame that saw it, and a line a host is still writing (no newline yet) is left out rather than refused.
     */
    @Test
    void aCutKeepsOnlyEventsPlacedAtOrBeforeItAndSkipsALineBeingWritten() throws Exception {
        Path sw = file("h0.ndjson",
                "{\"time\":25,\"host\":0,\"incarnation\":0,\"event\":\"switchControl\",\"command\":\"register_write\"}",
                "{\"time\":30,\"host\":0,\"incarnation\":0,\"event\":\"switchIn\",\"client\":3,\"reqId\":1,\"op\":1}");
        Path controller = file("h254.ndjson",
                "{\"time\":45,\"host\":254,\"incarnation\":0,\"event\":\"admitValidate\"}",
                "{\"time\":90,\"host\":254,\"incarnation\":0,\"event\":\"admitFloor\"}");
        Path server = dir.resolve("h1.ndjson");
        Files.writeString(server, "{\"time\":20,\"host\":1,\"incarnation\":0,\"event\":\"serverPut\"}\n"
                + "{\"time\":80,\"host\":1,\"incarn");
        List<String> cut = TraceEventsMerge.mergeStampedBy(List.of(sw, controller, server), 50);
        assertEquals(List.of(
                "{\"time\":20,\"host\":1,\"incarnation\":0,\"event\":\"serverPut\"}",
                "{\"time\":25,\"host\":254,\"incarnation\":0,\"event\":\"admitValidate\"}",
                "{\"time\":30,\"host\":0,\"incarnation\":0,\"event\":\"switchIn\",\"client\":3,\"reqId\":1,\"op\":1}"),
                cut);
        assertThrows(IllegalArgumentException.class, () -> TraceEventsMerge.merge(List.of(server)),
                "without a cut (a rack that is down) a torn last line is still refused");
    }

    /** mergeLive cuts at the time it is called: a line stamped a minute from now is not in its merge, an older one is. */
    @Test
    void aLiveMergeLeavesOutEventsStampedAfterItBegan() throws Exception {
        long now = System.nanoTime();
        Path client = file("h3.ndjson",
                "{\"time\":" + (now - 1_000_000) + ",\"host\":3,\"incarnation\":0,\"event\":\"clientWrite\"}",
                "{\"time\":" + (now + 60_000_000_000L) + ",\"host\":3,\"incarnation\":0,\"event\":\"clientReply\"}");
        List<String> merged = TraceEventsMerge.mergeLive(List.of(client));
        assertEquals(1, merged.size(), merged.toString());
        assertTrue(merged.get(0).contains("clientWrite"), merged.toString());
    }
}
