package dev.innet.lake.host;

import dev.innet.lake.wire.ByteString;
import dev.innet.lake.wire.McDatagram;
import dev.innet.lake.wire.McFrame;
import dev.innet.lake.wire.McOpcode;
import dev.innet.lake.wire.McRequest;
import dev.innet.lake.wire.McResponse;
import dev.innet.lake.wire.MemcachedUdpCodec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The simulated host ({@link MemcachedBackend}) answers like the real Debian {@code memcached}:
 * the same seeded mix of GET, SET (plain and with CAS) and DELETE goes over UDP to a freshly started
 * memcached and to the backend, and every response payload must be byte-identical (CAS values
 * included). Skipped, never passed, where {@code /usr/bin/memcached} is not installed
 * ({@code apt-get install memcached}).
 */
class RealMemcachedAgreementTest {
    private static final Path MEMCACHED = Path.of("/usr/bin/memcached");

    @Test
    void backendAnswersEveryRequestExactlyAsRealMemcached() throws Exception {
        assumeTrue(Files.isExecutable(MEMCACHED), "memcached is not installed");
        int port = freeUdpPort();
        List<String> cmd = new ArrayList<>(List.of(MEMCACHED.toString(), "-l", "127.0.0.1", "-p", "0",
                "-U", Integer.toString(port), "-m", "16", "-t", "1"));
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.addAll(List.of("-u", "nobody"));
        }
        Process memcached = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.setSoTimeout(2000);
            InetAddress local = InetAddress.getLoopbackAddress();
            awaitReady(socket, local, port);
            MemcachedBackend backend = new MemcachedBackend();
            Random rnd = new Random(11);
            List<ByteString> keys = List.of(ByteString.utf8("key-000000000089"), ByteString.utf8("key-000000000124"),
                    ByteString.utf8("k"));
            long[] lastCas = new long[1];
            for (int i = 0; i < 400; i++) {
                McRequest req = randomRequest(rnd, keys, lastCas[0], 1000 + i);
                byte[] payload = MemcachedUdpCodec.encode(new McDatagram(McFrame.single(i), req));
                byte[] real = exchange(socket, local, port, payload);
                byte[] simulated = backend.handleDatagram(payload).orElseThrow();
                assertEquals(HexFormat.of().formatHex(real), HexFormat.of().formatHex(simulated),
                        "request " + i + ": " + req);
                McResponse r = (McResponse) MemcachedUdpCodec.decode(real).message();
                if (r.cas() != 0) {
                    lastCas[0] = r.cas();
                }
            }
        } finally {
            memcached.destroy();
            memcached.waitFor();
        }
    }

    private static McRequest randomRequest(Random rnd, List<ByteString> keys, long recentCas, int opaque) {
        ByteString key = keys.get(rnd.nextInt(keys.size()));
        return switch (rnd.nextInt(5)) {
            case 0, 1 -> McRequest.get(key, opaque);
            case 2 -> {
                byte[] v = new byte[rnd.nextInt(40)];
                rnd.nextBytes(v);
                yield McRequest.set(key, ByteString.of(v), rnd.nextInt(), 0, opaque);
            }
            case 3 -> new McRequest(McOpcode.SET, key, ByteString.utf8("cas-" + opaque), 5, 0, opaque,
                    rnd.nextBoolean() ? recentCas : recentCas + 1000);
            default -> McRequest.delete(key, opaque);
        };
    }

    private static byte[] exchange(DatagramSocket s, InetAddress host, int port, byte[] payload) throws Exception {
        s.send(new DatagramPacket(payload, payload.length, host, port));
        byte[] buf = new byte[2048];
        DatagramPacket in = new DatagramPacket(buf, buf.length);
        s.receive(in);
        return Arrays.copyOf(buf, in.getLength());
    }

    /** memcached needs a moment to open its UDP port: ask until it answers (a GET of a key no test uses). */
    private static void awaitReady(DatagramSocket s, InetAddress host, int port) throws Exception {
        byte[] ping = MemcachedUdpCodec.encode(new McDatagram(McFrame.single(0xffff),
                McRequest.get(ByteString.utf8("ready?"), 0)));
        for (int attempt = 0; attempt < 25; attempt++) {
            try {
                exchange(s, host, port, ping);
                return;
            } catch (SocketTimeoutException notYet) {
                Thread.sleep(200);
            }
        }
        throw new AssertionError("memcached did not answer on UDP port " + port);
    }

    private static int freeUdpPort() throws Exception {
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
