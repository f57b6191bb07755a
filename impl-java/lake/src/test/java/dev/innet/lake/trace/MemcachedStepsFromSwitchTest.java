package dev.innet.lake.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.lake.wire.ByteString;
import dev.innet.lake.wire.McDatagram;
import dev.innet.lake.wire.McFrame;
import dev.innet.lake.wire.McMessage;
import dev.innet.lake.wire.McOpcode;
import dev.innet.lake.wire.McRequest;
import dev.innet.lake.wire.McResponse;
import dev.innet.lake.wire.McStatus;
import dev.innet.lake.wire.MemcachedUdpCodec;
import dev.innet.tracecheck.TraceFormatException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A live LaKe run's memcached steps, read off the switch's frames: one mcStart per memcached host first, an
 * mcRequest right before the switch step that took each answer (with the forwarded request's tag, key and op, the
 * answer's status and a GET's value or a SET's own), nothing for an answer no forwarded request explains, and the
 * controller's health probes left out, step and all.
 */
class MemcachedStepsFromSwitchTest {
    private static final int MEMCACHED = 1;
    private static final int CLIENT = 3;
    private static final int CONTROLLER = 254;
    private static final ByteString KEY = ByteString.utf8("user100000000000");
    private static final ByteString VALUE = ByteString.utf8("v".repeat(32));

    private static String frame(String event, long time, int src, int dst, McMessage m) {
        String payload = HexFormat.of().formatHex(MemcachedUdpCodec.encode(new McDatagram(McFrame.single(7), m)));
        return "{\"time\":" + time + ",\"host\":0,\"incarnation\":0,\"event\":\"" + event + "\",\"src\":" + src + ",\"dst\":"
                + dst + ",\"ipId\":1,\"payload\":\"" + payload + "\"}";
    }

    @Test
    void eachAnswerGetsItsStepRightBeforeTheSwitchTookIt() {
        List<String> run = List.of(
                // a SET forwarded under tag 5, a GET under tag 6, the controller's probe under tag 7
                frame("switchUdpIn", 10, CLIENT, MEMCACHED, McRequest.set(KEY, VALUE, 0, 0, 40)),
                frame("switchUdpOut", 10, CLIENT, MEMCACHED, McRequest.set(KEY, VALUE, 0, 0, 5)),
                frame("switchUdpIn", 20, CLIENT, MEMCACHED, McRequest.get(KEY, 41)),
                frame("switchUdpOut", 20, CLIENT, MEMCACHED, McRequest.get(KEY, 6)),
                frame("switchUdpIn", 25, CONTROLLER, MEMCACHED, McRequest.get(ByteString.utf8("health-probe"), 9)),
                frame("switchUdpOut", 25, CONTROLLER, MEMCACHED, McRequest.get(ByteString.utf8("health-probe"), 7)),
                "{\"time\":26,\"host\":3,\"incarnation\":0,\"event\":\"clientTimeout\",\"op\":\"get\",\"retry\":false}",
                frame("switchUdpIn", 30, MEMCACHED, CLIENT, McResponse.status(McOpcode.SET, McStatus.OK, "", 5, 1)),
                frame("switchUdpOut", 30, MEMCACHED, CLIENT, McResponse.status(McOpcode.SET, McStatus.OK, "", 40, 1)),
                frame("switchUdpIn", 35, MEMCACHED, CONTROLLER, McResponse.status(McOpcode.GET, McStatus.KEY_NOT_FOUND, "", 7, 0)),
                frame("switchUdpOut", 35, MEMCACHED, CONTROLLER, McResponse.status(McOpcode.GET, McStatus.KEY_NOT_FOUND, "", 9, 0)),
                frame("switchUdpIn", 40, MEMCACHED, CLIENT, McResponse.getHit(VALUE, 0, 6, 1)),
                // an answer whose tag was already answered: no second step
                frame("switchUdpIn", 50, MEMCACHED, CLIENT, McResponse.getHit(VALUE, 0, 6, 1)));
        List<String> out = MemcachedStepsFromSwitch.infer(run, Set.of(MEMCACHED, 2), Set.of(CLIENT, 4));
        assertEquals(List.of("mcStart h1", "mcStart h2", "switchUdpIn", "switchUdpOut", "switchUdpIn", "switchUdpOut",
                "clientTimeout", "mcRequest h1", "switchUdpIn", "switchUdpOut", "mcRequest h1", "switchUdpIn", "switchUdpIn"),
                out.stream().map(MemcachedStepsFromSwitchTest::shape).toList());
        String set = out.get(7);
        assertTrue(set.startsWith("{\"time\":30,\"host\":1,\"incarnation\":0,\"event\":\"mcRequest\",\"inferred\":true,\"op\":\"set\","
                + "\"opaque\":5,\"key\":\"" + HexFormat.of().formatHex(KEY.toArray()) + "\",\"value\":\""
                + HexFormat.of().formatHex(VALUE.toArray()) + "\",\"status\":0"), set);
        String get = out.get(10);
        assertTrue(get.contains("\"op\":\"get\",\"opaque\":6,") && get.contains("\"value\":\"" + HexFormat.of().formatHex(VALUE.toArray())),
                get);
        assertTrue(out.get(0).startsWith("{\"time\":10,\"host\":1,"), out.get(0));
    }

    @Test
    void aFrameThatIsNotMemcachedsIsRefusedNamingItsLine() {
        List<String> run = List.of("{\"time\":1,\"host\":0,\"incarnation\":0,\"event\":\"switchUdpIn\",\"src\":1,\"dst\":3,"
                + "\"ipId\":1,\"payload\":\"00\"}");
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> MemcachedStepsFromSwitch.infer(run, Set.of(1), Set.of(3)));
        assertTrue(e.getMessage().startsWith("line 1: not a memcached datagram"), e.getMessage());
    }

    private static String shape(String line) {
        String event = line.replaceAll(".*\"event\":\"([^\"]*)\".*", "$1");
        return event.startsWith("mc") ? event + " h" + line.replaceAll(".*\"host\":(\\d+),.*", "$1") : event;
    }
}
