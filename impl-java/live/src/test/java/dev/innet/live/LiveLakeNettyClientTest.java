package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.ProtocolRegistry;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 asks that a memcached client other than innet's drive LaKe. None speaks the binary protocol over UDP
 * whole (libmemcached cannot GET over UDP, memcaslap's binary UDP sends fail: docs/lake.md), so the client here is
 * Netty's binary memcache codec over a UDP socket ({@link NettyMemcacheProbe}; only the 8-byte frame header is ours).
 * First against the real memcached alone, which shows the client right; then from a live LaKe rack's client
 * namespace, through p4/lake.p4 on p4sim to the real memcached: every GET gets the value set, and LaKe's own
 * counters show its layers answered GETs. Skipped (not passed) where network namespaces are forbidden.
 */
class LiveLakeNettyClientTest {
    private static final int KEYS = 4;
    private static final int GETS = 5;

    @Test
    void nettysBinaryCodecGetsFromRealMemcachedAlone() throws Exception {
        assertTrue(Commands.onPath("memcached"), "memcached is not on PATH: ./innet setup installs it");
        int port;
        try (DatagramSocket probe = new DatagramSocket(0)) {
            port = probe.getLocalPort();
        }
        List<String> cmd = new ArrayList<>(List.of("memcached", "-l", "127.0.0.1", "-p", "0", "-U", Integer.toString(port),
                "-m", "16", "-t", "1"));
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.addAll(List.of("-u", "nobody"));
        }
        Process memcached = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.setSoTimeout(1_000);
            NettyMemcacheProbe.Summary s = new NettyMemcacheProbe(socket, new InetSocketAddress("127.0.0.1", port))
                    .run(KEYS, GETS);
            assertTrue(s.allRight(), s.toString());
            assertEquals(KEYS, s.setsOk());
            assertEquals(KEYS * GETS, s.getsOk());
        } finally {
            memcached.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void nettysBinaryCodecDrivesALiveLakeRackAndLakeAnswersItsGets(@TempDir Path state) throws Exception {
        NetworkNamespaces.assumeAllowed("lnc");
        String name = "lnc" + (ProcessHandle.current().pid() % 100_000);
        RackLayout layout = RackLayout.of(name, state, 2, 2);
        String javaBinary = ProcessHandle.current().info().command().orElseThrow();
        String classPath = RackUp.absoluteClassPath(System.getProperty("java.class.path"));
        RackUp.Settings settings = new RackUp.Settings(LiveValidationRacks.root(), layout, ProtocolRegistry.byName("lake"), 7,
                90_000, javaBinary, classPath);
        new RackUp(settings, System.out).up();
        try {
            int server = layout.servers().get(0);
            long[] before = LiveLakeRackTest.lakeStats(layout);
            Process p = new ProcessBuilder("ip", "netns", "exec", layout.namespaceOf(layout.clients().get(0)), javaBinary, "-cp",
                    classPath, NettyMemcacheProbe.class.getName(), RackLayout.ip(server), "11211", Integer.toString(KEYS),
                    Integer.toString(GETS)).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
            System.out.print(out);
            assertEquals(0, p.exitValue(), out);
            assertTrue(out.contains("sets_ok=" + KEYS + " gets_ok=" + KEYS * GETS + " wrong=0 unanswered=0"), out);
            long[] after = LiveLakeRackTest.lakeStats(layout);
            long hits = (after[0] - before[0]) + (after[1] - before[1]);
            System.out.println("LaKe answered " + hits + " of the client's " + KEYS * GETS + " GETs (first layer "
                    + (after[0] - before[0]) + ", second " + (after[1] - before[1]) + ")");
            // the SET replies fill both layers (LK-5), so LaKe can answer every GET itself; allow for keys that share
            // a first-layer slot with another of them
            assertTrue(hits >= (long) KEYS * (GETS - 1), "LaKe's layers answered " + hits + " of " + KEYS * GETS
                    + " GETs (lake_stats before " + java.util.Arrays.toString(before) + ", after "
                    + java.util.Arrays.toString(after) + ")");
        } finally {
            List<String> left = RackDown.down(layout.planFile(), System.out);
            assertTrue(left.isEmpty(), "rack down left " + left);
        }
    }
}
