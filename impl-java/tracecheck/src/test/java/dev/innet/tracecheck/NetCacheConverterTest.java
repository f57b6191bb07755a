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

/** The NetCache converter on hand-written traces (order, seq mapping, stale replies, deletes, refusals) and the plug-in registry. */
class NetCacheConverterTest {
    private static List<TraceLine> lines(String... json) {
        List<TraceLine> out = new ArrayList<>();
        for (int i = 0; i < json.length; i++) {
            out.add(NdjsonTrace.parse(i + 1, json[i]));
        }
        return out;
    }

    private static NetCacheTraceConverter.Converted convert(String... json) {
        return new NetCacheTraceConverter(TraceSettings.rack(1)).convert(lines(json));
    }

    @Test
    void seqsOfALaterSwitchIncarnationAreMappedOntoTheSpecsRestartBase() {
        long base2 = 1L << 24;
        var run = convert(
                "{\"time\":0,\"host\":3,\"incarnation\":0,\"event\":\"clientWrite\",\"key\":\"k\",\"value\":\"a\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":5000,\"host\":3,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"write\",\"key\":\"k\",\"reqId\":1,\"status\":\"ok\",\"seq\":1,\"value\":\"\",\"fromSwitch\":false}",
                "{\"time\":9000,\"host\":4,\"incarnation\":0,\"event\":\"clientWrite\",\"key\":\"k\",\"value\":\"b\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":20000,\"host\":254,\"incarnation\":0,\"event\":\"switchProgrammed\",\"bringUp\":2,\"seqBase\":" + base2 + "}",
                "{\"time\":30000,\"host\":5,\"incarnation\":0,\"event\":\"clientWrite\",\"key\":\"k\",\"value\":\"c\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":32000,\"host\":1,\"incarnation\":0,\"event\":\"serverPut\",\"client\":5,\"reqId\":1,\"key\":\"k\",\"recSeq\":" + (base2 + 1)
                        + ",\"recValue\":\"c\",\"recDeleted\":false,\"storedSeq\":" + (base2 + 1) + ",\"storedValue\":\"c\",\"storedDeleted\":false}");
        List<Map<String, Object>> steps = run.steps();
        assertEquals(List.of("write", "putReply", "write", "restart", "write", "serverPut"),
                steps.stream().map(s -> s.get("e")).toList());
        assertEquals("early", steps.get(2).get("how"),
                "no reply, no server event, and a restart before the switch was next seen: lost or never processed");
        assertEquals(4L, steps.get(4).get("s"), "2 writes, 1 restart: the spec's counter restarts at nW + nCrash = 3");
        assertEquals(4L, steps.get(5).get("s"));
        assertEquals(3L, steps.get(5).get("sv"), "the stored value is the third write's");
        assertEquals(4L, steps.get(5).get("ss"), "the stored seq is mapped too");
        assertEquals(1, run.restarts());
    }

    /**
     * Live rack (2026-11-24): h3 sent its write 8.7 us before h4 sent one of the same key, but the switch
     * processed (and numbered) h4's first. The switch's events place each write where it was numbered, so the
     * write ids follow the seqs; the reply goes where the switch relayed it.
     */
    @Test
    void theSwitchsEventsPlaceWritesInTheOrderItNumberedThem() {
        var run = convert(
                "{\"time\":1000,\"host\":3,\"incarnation\":0,\"event\":\"clientWrite\",\"key\":\"k\",\"value\":\"a\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":1100,\"host\":4,\"incarnation\":0,\"event\":\"clientWrite\",\"key\":\"k\",\"value\":\"b\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":1200,\"host\":0,\"incarnation\":0,\"event\":\"switchIn\",\"client\":4,\"reqId\":1,\"op\":2}",
                "{\"time\":1300,\"host\":0,\"incarnation\":0,\"event\":\"switchIn\",\"client\":3,\"reqId\":1,\"op\":2}",
                "{\"time\":1400,\"host\":1,\"incarnation\":0,\"event\":\"serverPut\",\"client\":4,\"reqId\":1,\"key\":\"k\",\"recSeq\":1,\"recValue\":\"b\",\"recDeleted\":false,\"storedSeq\":1,\"storedValue\":\"b\",\"storedDeleted\":false}",
                "{\"time\":1500,\"host\":1,\"incarnation\":0,\"event\":\"serverPut\",\"client\":3,\"reqId\":1,\"key\":\"k\",\"recSeq\":2,\"recValue\":\"a\",\"recDeleted\":false,\"storedSeq\":2,\"storedValue\":\"a\",\"storedDeleted\":false}",
                "{\"time\":1600,\"host\":0,\"incarnation\":0,\"event\":\"switchOut\",\"client\":3,\"reqId\":1,\"op\":130}",
                "{\"time\":1700,\"host\":0,\"incarnation\":0,\"event\":\"switchOut\",\"client\":4,\"reqId\":1,\"op\":130}",
                "{\"time\":1900,\"host\":4,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"write\",\"key\":\"k\",\"reqId\":1,\"status\":\"ok\",\"seq\":1,\"value\":\"\",\"fromSwitch\":false}",
                "{\"time\":2000,\"host\":3,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"write\",\"key\":\"k\",\"reqId\":1,\"status\":\"ok\",\"seq\":2,\"value\":\"\",\"fromSwitch\":false}");
        List<Map<String, Object>> steps = run.steps();
        assertEquals(List.of("write", "write", "serverPut", "serverPut", "putReply", "putReply"),
                steps.stream().map(s -> s.get("e")).toList());
        assertEquals("h4", steps.get(0).get("c"), "h4's write was numbered first");
        assertEquals(1L, steps.get(0).get("w"));
        assertEquals(2L, steps.get(1).get("w"));
        assertEquals("h3", steps.get(4).get("c"), "the switch relayed h3's reply first");
        assertEquals(2L, steps.get(4).get("w"));
    }

    @Test
    void aLateReplyIsPlacedAtTheSwitchAndAnswersTheAttemptAServerSaw() {
        var run = convert(
                "{\"time\":0,\"host\":3,\"incarnation\":0,\"event\":\"clientRead\",\"key\":\"k\",\"reqId\":7,\"attempt\":1}",
                "{\"time\":3000,\"host\":1,\"incarnation\":0,\"event\":\"serverGet\",\"client\":3,\"reqId\":7,\"key\":\"k\",\"op\":\"GET\",\"replySeq\":0,\"replyValue\":\"\",\"replyDeleted\":true,\"storedSeq\":0,\"storedValue\":\"\",\"storedDeleted\":true}",
                "{\"time\":4000,\"host\":3,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"read\",\"key\":\"k\",\"reqId\":7,\"status\":\"notFound\",\"seq\":0,\"value\":\"\",\"fromSwitch\":false}",
                "{\"time\":6000,\"host\":3,\"incarnation\":0,\"event\":\"clientStaleReply\",\"op\":\"read\",\"key\":\"k\",\"reqId\":7,\"status\":\"notFound\",\"seq\":0,\"value\":\"\"}");
        List<Map<String, Object>> steps = run.steps();
        assertEquals(List.of("read", "serverGet", "getReply", "getReply"), steps.stream().map(s -> s.get("e")).toList());
        assertEquals(false, steps.get(1).get("cons"));
        assertEquals(false, steps.get(2).get("stale"));
        assertEquals(true, steps.get(2).get("dup"), "the same reply seen again later: deliver and keep");
        assertEquals(true, steps.get(3).get("stale"));
        assertEquals(1L, steps.get(3).get("r"));
        assertEquals(1, run.duplicates());
    }

    @Test
    void aDeleteIsAWriteWhoseDeletedRecordsAreKnownByKeyAndSeq() {
        var run = convert(
                "{\"time\":0,\"host\":3,\"incarnation\":0,\"event\":\"clientWrite\",\"key\":\"k\",\"value\":\"a\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":5000,\"host\":3,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"write\",\"key\":\"k\",\"reqId\":1,\"status\":\"ok\",\"seq\":1,\"value\":\"\",\"fromSwitch\":false}",
                "{\"time\":6000,\"host\":3,\"incarnation\":0,\"event\":\"clientWrite\",\"key\":\"k\",\"value\":\"\",\"delete\":true,\"reqId\":2,\"attempt\":1}",
                "{\"time\":8000,\"host\":1,\"incarnation\":0,\"event\":\"serverPut\",\"client\":3,\"reqId\":2,\"key\":\"k\",\"recSeq\":2,\"recValue\":\"\",\"recDeleted\":true,\"storedSeq\":2,\"storedValue\":\"\",\"storedDeleted\":true}",
                "{\"time\":10000,\"host\":3,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"write\",\"key\":\"k\",\"reqId\":2,\"status\":\"ok\",\"seq\":2,\"value\":\"\",\"fromSwitch\":false}",
                "{\"time\":11000,\"host\":3,\"incarnation\":0,\"event\":\"clientRead\",\"key\":\"k\",\"reqId\":3,\"attempt\":1}",
                "{\"time\":13000,\"host\":1,\"incarnation\":0,\"event\":\"serverGet\",\"client\":3,\"reqId\":3,\"key\":\"k\",\"op\":\"GET_FOR_CACHE\",\"replySeq\":2,\"replyValue\":\"\",\"replyDeleted\":true,\"storedSeq\":5,\"storedValue\":\"\",\"storedDeleted\":true}",
                "{\"time\":15000,\"host\":3,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"read\",\"key\":\"k\",\"reqId\":3,\"status\":\"notFound\",\"seq\":2,\"value\":\"\",\"fromSwitch\":false}");
        List<Map<String, Object>> steps = run.steps();
        assertEquals(List.of("write", "putReply", "write", "serverPut", "putReply", "read", "serverGet", "getReply"),
                steps.stream().map(s -> s.get("e")).toList());
        assertEquals(java.util.Set.of(2L), run.deletes(), "the delete is write 2");
        assertEquals(2L, steps.get(3).get("sv"), "the stored deleted record with seq 2 is the delete's");
        assertEquals(2L, steps.get(6).get("v"), "the deleted record returned");
        assertEquals(-2L, steps.get(6).get("sv"), "no delete of k was numbered 5: a record no write produced");
        assertEquals(2L, steps.get(7).get("v"), "a NOT_FOUND reply with seq 2 carries the delete's record");
        assertTrue(NetCacheTraceModel.traceData(run).contains("DeleteIds == {2}"), NetCacheTraceModel.traceData(run));
    }

    @Test
    void onlySilentRequestsOutsideTheSwitchsSeenWorkingMayHaveBeenDroppedUnprocessed() {
        var run = convert(
                "{\"time\":0,\"host\":3,\"incarnation\":0,\"event\":\"clientRead\",\"key\":\"k\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":1000,\"host\":4,\"incarnation\":0,\"event\":\"clientRead\",\"key\":\"k\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":4000,\"host\":4,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"read\",\"key\":\"k\",\"reqId\":1,\"status\":\"notFound\",\"seq\":0,\"value\":\"\",\"fromSwitch\":false}",
                "{\"time\":5000,\"host\":5,\"incarnation\":0,\"event\":\"clientRead\",\"key\":\"k\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":6000,\"host\":4,\"incarnation\":0,\"event\":\"clientRead\",\"key\":\"k\",\"reqId\":2,\"attempt\":1}",
                "{\"time\":8000,\"host\":4,\"incarnation\":0,\"event\":\"clientReply\",\"op\":\"read\",\"key\":\"k\",\"reqId\":2,\"status\":\"notFound\",\"seq\":0,\"value\":\"\",\"fromSwitch\":false}",
                "{\"time\":9000,\"host\":4,\"incarnation\":0,\"event\":\"clientRead\",\"key\":\"k\",\"reqId\":3,\"attempt\":1}");
        List<Object> hows = run.steps().stream().filter(s -> s.get("e").equals("read")).map(s -> s.get("how")).toList();
        assertEquals(List.of("early", "fwd", "lost", "fwd", "early"), hows,
                "before the switch is first seen working, and after it is last seen, a request may have been dropped");
    }

    @Test
    void hostRestartsAreRefusedWithTheLine() {
        var e = assertThrows(TraceFormatException.class, () -> convert(
                "{\"time\":0,\"host\":3,\"incarnation\":1,\"event\":\"clientRead\",\"key\":\"k\",\"reqId\":1,\"attempt\":1}"));
        assertTrue(e.getMessage().startsWith("line 1: host 3 restarted"), e.getMessage());
    }

    @Test
    void bothProtocolsArePluggedInAndTheCommandNamesTheCoveredOnes(@TempDir Path dir) throws Exception {
        assertEquals(List.of("farreach", "netcache"), TraceConversions.all().stream().map(TraceConversion::protocol).toList());
        Path ndjson = dir.resolve("run.ndjson");
        Files.writeString(ndjson, "{\"time\":0,\"host\":3,\"incarnation\":0,\"event\":\"clientRead\",\"key\":\"k\",\"reqId\":1,\"attempt\":1}\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = dev.innet.cli.Cli.run("innet-tracecheck", new ValidateMain(),
                new String[] {ndjson.toString(), "--protocol", "nocache"}, new PrintStream(out), new PrintStream(err));
        assertEquals(2, code);
        assertTrue(err.toString().contains("covered: [farreach, netcache]"), err.toString());
    }
}
