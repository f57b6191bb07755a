package dev.innet.tracecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The converter on hand-written traces: ordering, write ids, request fates, refusals; the command's arguments. */
class ConverterTest {
    private static List<TraceLine> lines(String... json) {
        List<TraceLine> out = new ArrayList<>();
        for (int i = 0; i < json.length; i++) {
            out.add(NdjsonTrace.parse(i + 1, json[i]));
        }
        return out;
    }

    @Test
    void writesAreNumberedInSwitchOrderAndRepliesPlacedAtTheSwitch() {
        var run = new FarReachTraceConverter(1_000, 2).convert(lines(
                "{\"time\":0,\"host\":3,\"incarnation\":0,\"event\":\"clientWrite\",\"key\":\"k\",\"value\":\"a\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":500,\"host\":4,\"incarnation\":0,\"event\":\"clientWrite\",\"key\":\"k\",\"value\":\"b\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":2200,\"host\":4,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"write\",\"key\":\"k\",\"reqId\":1,\"status\":\"ok\",\"fromSwitch\":true,\"seq\":2,\"value\":\"\"}",
                "{\"time\":3000,\"host\":1,\"incarnation\":0,\"event\":\"serverPut\",\"client\":3,\"reqId\":1,\"key\":\"k\",\"recSeq\":1,\"recValue\":\"a\",\"recDeleted\":false,\"storedSeq\":1,\"storedValue\":\"a\",\"storedDeleted\":false}"));
        List<Map<String, Object>> steps = run.steps();
        assertEquals(List.of("write", "write", "serverPut"), steps.stream().map(s -> s.get("e")).toList());
        assertEquals(1L, steps.get(0).get("w"));
        assertEquals("fwd", steps.get(0).get("how"), "a server saw it: forwarded, its reply lost");
        assertEquals("hit", steps.get(1).get("how"));
        assertEquals(2L, steps.get(1).get("s"));
        assertEquals(1L, steps.get(2).get("sv"));
        assertEquals(2, run.writes());
        assertEquals(2, run.cacheSize());
    }

    @Test
    void aGetDeliveredTwiceIsOneMessageEvenWhenTheAnswersDiffer() {
        String get = "{\"time\":%d,\"host\":1,\"incarnation\":0,\"event\":\"serverGet\",\"client\":5,\"reqId\":7,"
                + "\"key\":\"k\",\"op\":\"GET\",\"replySeq\":%d,\"replyValue\":\"%s\",\"replyDeleted\":false,"
                + "\"storedSeq\":%d,\"storedValue\":\"%s\",\"storedDeleted\":false}";
        var run = new FarReachTraceConverter(1_000, 2).convert(lines(
                "{\"time\":0,\"host\":5,\"incarnation\":0,\"event\":\"clientRead\",\"key\":\"k\",\"reqId\":7,\"attempt\":1}",
                get.formatted(5_000, 0, "", 0, ""),
                "{\"time\":6000,\"host\":5,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"read\",\"key\":\"k\",\"reqId\":7,\"status\":\"ok\",\"fromSwitch\":false,\"seq\":0,\"value\":\"\"}",
                "{\"time\":6000,\"host\":5,\"incarnation\":0,\"event\":\"clientWrite\",\"key\":\"k\",\"value\":\"a\",\"reqId\":8,\"attempt\":1}",
                "{\"time\":8000,\"host\":1,\"incarnation\":0,\"event\":\"serverPut\",\"client\":5,\"reqId\":8,\"key\":\"k\",\"recSeq\":1,\"recValue\":\"a\",\"recDeleted\":false,\"storedSeq\":1,\"storedValue\":\"a\",\"storedDeleted\":false}",
                get.formatted(9_000, 1, "a", 1, "a")));
        List<Map<String, Object>> gets = run.steps().stream().filter(s -> s.get("e").equals("serverGet")).toList();
        assertEquals(List.of(true, false), gets.stream().map(s -> s.get("dup")).toList(),
                "the first delivery keeps the message for the second");
        assertEquals(1, run.duplicates());
    }

    @Test
    void aDeletedRecordIsTheDeleteWithItsKeyAndSequenceNumber() {
        var run = new FarReachTraceConverter(1_000, 2).convert(lines(
                "{\"time\":0,\"host\":3,\"incarnation\":0,\"event\":\"clientWrite\",\"key\":\"k\",\"value\":\"a\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":2000,\"host\":3,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"write\",\"key\":\"k\",\"reqId\":1,\"status\":\"ok\",\"fromSwitch\":true,\"seq\":1,\"value\":\"\"}",
                "{\"time\":2000,\"host\":3,\"incarnation\":0,\"event\":\"clientWrite\",\"key\":\"k\",\"value\":\"\",\"delete\":true,\"reqId\":2,\"attempt\":1}",
                "{\"time\":4000,\"host\":3,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"write\",\"key\":\"k\",\"reqId\":2,\"status\":\"ok\",\"fromSwitch\":true,\"seq\":2,\"value\":\"\"}",
                "{\"time\":4000,\"host\":3,\"incarnation\":0,\"event\":\"clientRead\",\"key\":\"k\",\"reqId\":3,\"attempt\":1}",
                "{\"time\":6000,\"host\":3,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"read\",\"key\":\"k\",\"reqId\":3,\"status\":\"notFound\",\"fromSwitch\":true,\"seq\":2,\"value\":\"\"}",
                "{\"time\":6000,\"host\":3,\"incarnation\":0,\"event\":\"clientRead\",\"key\":\"k\",\"reqId\":4,\"attempt\":1}",
                "{\"time\":8000,\"host\":3,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"read\",\"key\":\"k\",\"reqId\":4,\"status\":\"notFound\",\"fromSwitch\":true,\"seq\":7,\"value\":\"\"}"));
        List<Map<String, Object>> reads = run.steps().stream().filter(s -> s.get("e").equals("read")).toList();
        assertEquals(2L, reads.get(0).get("v"), "the delete is write 2, numbered 2 by the switch");
        assertEquals(-2L, reads.get(1).get("v"), "no delete of k was numbered 7: an invented record");
        assertEquals(2, run.writes());
    }

    @Test
    void unsupportedRunsAreRefusedWithTheLine() {
        var e = assertThrows(TraceFormatException.class, () -> new FarReachTraceConverter(1_000, null).convert(lines(
                "{\"time\":0,\"host\":254,\"incarnation\":0,\"event\":\"switchCrashSeen\"}")));
        assertTrue(e.getMessage().startsWith("line 1: switchCrashSeen without a switch crash"), e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> new FarReachTraceConverter(1_000, null).convert(lines(
                "{\"time\":0,\"host\":3,\"incarnation\":0,\"event\":\"clientRead\",\"key\":\"k\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":5,\"host\":0,\"incarnation\":0,\"event\":\"switchCrash\",\"switch\":\"tor\"}")));
        assertTrue(e.getMessage().startsWith("line 2: the switch crashed and its recovery did not finish"), e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> new FarReachTraceConverter(1_000, null).convert(lines(
                "{\"time\":0,\"host\":254,\"incarnation\":0,\"event\":\"snapAbandoned\",\"epoch\":1,\"missingOriginals\":1}")));
        assertTrue(e.getMessage().startsWith("line 1: a snapshot abandoned"), e.getMessage());
        assertThrows(TraceFormatException.class, () -> NdjsonTrace.parse(7, "{\"time\":1,"));
    }

    /**
     * A controller that restarts after the switch crashed but before any controller began the recovery (a live rack:
     * its control call was cut by the crash) runs the whole recovery itself: CtlRestart, then Recover. One that
     * restarts after its predecessor began it would resume in the middle, which Recover as one step cannot express.
     */
    @Test
    void aControllerRestartBeforeTheRecoveryBeganIsACtlRestartAndAfterItIsRefused() {
        String read = "{\"time\":0,\"host\":3,\"incarnation\":0,\"event\":\"clientRead\",\"key\":\"k\",\"reqId\":1,\"attempt\":1}";
        String crash = "{\"time\":5,\"host\":0,\"incarnation\":0,\"event\":\"switchCrash\"}";
        String done = "{\"time\":30,\"host\":254,\"incarnation\":1,\"event\":\"recoverDone\",\"replayed\":0,\"readmitted\":0}";
        var run = new FarReachTraceConverter(1_000, null).convert(lines(read, crash,
                "{\"time\":10,\"host\":254,\"incarnation\":1,\"event\":\"switchCrashSeen\"}", done));
        List<Object> events = run.steps().stream().map(s -> s.get("e")).filter(e -> !e.equals("read")).toList();
        assertEquals(List.of("crash", "ctlRestart", "recover"), events);
        var e = assertThrows(TraceFormatException.class, () -> new FarReachTraceConverter(1_000, null).convert(lines(read, crash,
                "{\"time\":10,\"host\":254,\"incarnation\":0,\"event\":\"switchCrashSeen\"}", done)));
        assertTrue(e.getMessage().startsWith("line 4: the controller restarted during a switch recovery"), e.getMessage());
    }

    @Test
    void theCommandRejectsAMissingFileAndReportsAnUnconvertibleRunAsUnknown(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = dev.innet.cli.Cli.run("innet-tracecheck", new ValidateMain(), new String[] {dir.resolve("none").toString()},
                new PrintStream(out), new PrintStream(err));
        assertEquals(2, code);
        assertTrue(err.toString().contains("no such file"), err.toString());
        Path bad = dir.resolve("bad.ndjson");
        // an abandoned snapshot: FarReach.tla's snapshots always finish (a controller restart no longer serves:
        // the trace spec's CtlRestart covers it)
        Files.writeString(bad, "{\"time\":0,\"host\":254,\"incarnation\":0,\"event\":\"snapAbandoned\",\"epoch\":1,"
                + "\"missingOriginals\":1}\n");
        Path specs = Path.of(System.getProperty("innet.root", "../.."), "specs", "farreach");
        code = dev.innet.cli.Cli.run("innet-tracecheck", new ValidateMain(),
                new String[] {bad.toString(), "--specs", specs.toString()}, new PrintStream(out), new PrintStream(err));
        assertEquals(ValidateMain.EXIT_UNKNOWN, code);
        assertTrue(out.toString().contains("unknown: cannot convert"), out.toString());
    }
}
