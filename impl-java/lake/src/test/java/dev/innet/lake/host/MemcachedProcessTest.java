package dev.innet.lake.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.innet.lake.LakeProtocol;
import dev.innet.lake.wire.ByteString;
import dev.innet.lake.wire.McDatagram;
import dev.innet.lake.wire.McFrame;
import dev.innet.lake.wire.McOpcode;
import dev.innet.lake.wire.McRequest;
import dev.innet.lake.wire.McResponse;
import dev.innet.lake.wire.McStatus;
import dev.innet.lake.wire.MemcachedUdpCodec;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The real memcached as live racks start it ({@link MemcachedProcess}): the arguments serve UDP only,
 * on the given address, and the health probe is answered by memcached itself, and only its answer
 * counts. The probe's exchange runs against a real memcached started with the class's own arguments
 * (on loopback and a free port); skipped, never passed, without {@code /usr/bin/memcached}.
 */
class MemcachedProcessTest {
    private static final Path MEMCACHED = Path.of("/usr/bin/memcached");
    private final MemcachedProcess server = new MemcachedProcess();

    @Test
    void argumentsServeUdpOnlyOnTheAddressAndDropRootWhenRoot() {
        List<String> asUser = server.arguments("10.0.0.1", false);
        assertEquals(List.of("-l", "10.0.0.1", "-p", "0", "-U", "11211", "-m", "64", "-t", "1"), asUser);
        assertEquals("-u nobody", String.join(" ", server.arguments("10.0.0.1", true).subList(10, 12)));
        assertFalse(server.durable(), "memcached keeps items in memory: a restart loses them");
        assertThrows(IllegalArgumentException.class, () -> new MemcachedProcess(0));
        assertTrue(new LakeProtocol().externalServer().isPresent(), "LaKe's live servers are memcached");
        assertEquals(32, new LakeProtocol().workloadValueBytes());
    }

    @Test
    void theProbeIsAKeyLakeNeverCaches() throws Exception {
        McDatagram d = MemcachedUdpCodec.decode(server.probeRequest());
        McRequest r = (McRequest) d.message();
        assertEquals(McOpcode.GET, r.opcode());
        // lake.p4 caches 16-byte keys only: the probe must go through to memcached
        assertTrue(r.key().length() != 16, "probe key length " + r.key().length());
    }

    @Test
    void onlyAnAnswerToTheProbeCounts() {
        int opaque = MemcachedProcess.PROBE_OPAQUE;
        McFrame frame = McFrame.single(MemcachedProcess.PROBE_REQUEST_ID);
        byte[] miss = MemcachedUdpCodec.encode(new McDatagram(frame, McResponse.status(McOpcode.GET, McStatus.KEY_NOT_FOUND,
                "Not found", opaque, 0)));
        byte[] hit = MemcachedUdpCodec.encode(new McDatagram(frame, McResponse.getHit(ByteString.utf8("x"), 0, opaque, 7)));
        byte[] otherOpaque = MemcachedUdpCodec.encode(new McDatagram(frame, McResponse.status(McOpcode.GET,
                McStatus.KEY_NOT_FOUND, "Not found", opaque + 1, 0)));
        byte[] otherRequest = MemcachedUdpCodec.encode(new McDatagram(McFrame.single(1), McResponse.status(McOpcode.GET,
                McStatus.KEY_NOT_FOUND, "Not found", opaque, 0)));
        byte[] error = MemcachedUdpCodec.encode(new McDatagram(frame, McResponse.status(McOpcode.GET, 0x0084,
                "Out of memory", opaque, 0)));
        assertTrue(server.answersProbe(miss));
        assertTrue(server.answersProbe(hit));
        assertFalse(server.answersProbe(otherOpaque));
        assertFalse(server.answersProbe(otherRequest));
        assertFalse(server.answersProbe(error), "an error status is not a healthy memcached");
        assertFalse(server.answersProbe(server.probeRequest()), "the request itself (a loop) is no answer");
        assertFalse(server.answersProbe(new byte[] {1, 2, 3}));
        assertFalse(server.answersProbe(Arrays.copyOf(miss, miss.length - 1)), "a truncated answer");
    }

    @Test
    void realMemcachedStartedWithTheseArgumentsAnswersTheProbe() throws Exception {
        assumeTrue(Files.isExecutable(MEMCACHED), "memcached is not installed (apt-get install memcached)");
        int port;
        try (DatagramSocket free = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        List<String> cmd = new ArrayList<>(List.of(MEMCACHED.toString()));
        List<String> args = new ArrayList<>(server.arguments("127.0.0.1", "root".equals(System.getProperty("user.name"))));
        args.set(args.indexOf("-U") + 1, Integer.toString(port)); // a free port instead of 11211
        cmd.addAll(args);
        Process memcached = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.setSoTimeout(200);
            byte[] probe = server.probeRequest();
            byte[] answer = null;
            for (int attempt = 0; attempt < 50 && answer == null; attempt++) {
                socket.send(new DatagramPacket(probe, probe.length, InetAddress.getLoopbackAddress(), port));
                byte[] buf = new byte[2048];
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                try {
                    socket.receive(p);
                    answer = Arrays.copyOf(buf, p.getLength());
                } catch (SocketTimeoutException e) {
                    // memcached is still starting
                }
            }
            assertTrue(answer != null, "memcached never answered the probe");
            assertTrue(server.answersProbe(answer), "memcached's answer is recognised");
            McResponse r = (McResponse) MemcachedUdpCodec.decode(answer).message();
            assertEquals(McStatus.KEY_NOT_FOUND, r.status(), "the sentinel key is never stored");
        } finally {
            memcached.destroy();
            memcached.waitFor();
        }
    }
}
