package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.innet.protocol.ExternalServer;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.ProtocolRegistry;
import dev.innet.protocol.RackNodes;
import dev.innet.protocol.RackSpec;
import dev.innet.switchapi.SwitchHandle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The health check of a server host that runs an existing program, without namespaces: the probe
 * against a real memcached on loopback (skipped without it), a silent port, requests other than
 * health, and a rack whose program is not installed (refused before anything is made).
 */
class ExternalServerHealthTest {
    private final ExternalServer memcached = ProtocolRegistry.byName("lake").externalServer().orElseThrow();

    @Test
    void onlyHealthIsAnsweredForTheProgram() {
        String answer = ExternalServerHealth.answer("clock-skew 100", memcached, "lake", 1, 254);
        assertTrue(answer.startsWith("error: h1 runs memcached"), answer);
    }

    @Test
    void aSilentPortIsNotReady() throws Exception {
        int port = freePort();
        ExternalServer silent = onPort(memcached, port);
        IOException e = assertThrows(IOException.class, () -> ExternalServerHealth.probe(silent, "127.0.0.1", "127.0.0.1", 300));
        assertTrue(e.getMessage().contains("no answer from memcached"), e.getMessage());
    }

    @Test
    void realMemcachedAnswersTheProbe() throws Exception {
        Path binary = Path.of("/usr/bin/memcached");
        assumeTrue(Files.isExecutable(binary), "memcached is not installed");
        int port = freePort();
        List<String> cmd = new ArrayList<>(List.of(binary.toString()));
        List<String> args = new ArrayList<>(memcached.arguments("127.0.0.1", Commands.runningAsRoot()));
        args.set(args.indexOf("-U") + 1, Integer.toString(port));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            ExternalServer onPort = onPort(memcached, port);
            long micros = -1;
            for (int i = 0; i < 30 && micros < 0; i++) {
                try {
                    micros = ExternalServerHealth.probe(onPort, "127.0.0.1", "127.0.0.1", 300);
                } catch (IOException starting) {
                    // memcached is still opening its port
                }
            }
            assertTrue(micros >= 0, "memcached never answered the probe");
        } finally {
            p.destroy();
            p.waitFor();
        }
    }

    @Test
    void aRackWhoseProgramIsMissingIsRefusedBeforeAnythingIsMade(@TempDir Path state) {
        Protocol lake = ProtocolRegistry.byName("lake");
        Protocol missing = new Protocol() {
            public String name() { return "llkmissing"; }
            public String summary() { return "test"; }
            public String p4Program() { return lake.p4Program(); }
            public boolean servesFromSwitch() { return false; }
            public RackNodes nodes(RackSpec rack, SwitchHandle h) { return lake.nodes(rack, h); }
            public Optional<ExternalServer> externalServer() {
                return Optional.of(new Delegate(memcached) {
                    @Override
                    public String program() {
                        return "llk-no-such-program";
                    }
                });
            }
        };
        RackLayout layout = RackLayout.of("llkmiss", state, 1, 1);
        RackUp up = new RackUp(new RackUp.Settings(state, layout, missing, 1, 1_000, "java", ""),
                new PrintStream(new ByteArrayOutputStream()));
        IllegalStateException e = assertThrows(IllegalStateException.class, up::up);
        assertTrue(e.getMessage().contains("llk-no-such-program is not on PATH") && e.getMessage().contains("Debian package memcached"),
                e.getMessage());
        assertFalse(Files.exists(layout.planFile()), "nothing was made");
    }

    private static int freePort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static ExternalServer onPort(ExternalServer server, int port) {
        return new Delegate(server) {
            @Override
            public int udpPort() {
                return port;
            }
        };
    }

    /** An ExternalServer that answers like another, for overriding one method. */
    private static class Delegate implements ExternalServer {
        private final ExternalServer d;

        Delegate(ExternalServer d) {
            this.d = d;
        }

        public String program() { return d.program(); }
        public String debianPackage() { return d.debianPackage(); }
        public List<String> arguments(String address, boolean asRoot) { return d.arguments(address, asRoot); }
        public int udpPort() { return d.udpPort(); }
        public byte[] probeRequest() { return d.probeRequest(); }
        public boolean answersProbe(byte[] payload) { return d.answersProbe(payload); }
        public boolean durable() { return d.durable(); }
    }
}
