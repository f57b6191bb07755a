package dev.innet.p4runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.TextFormat;
import dev.innet.switchapi.EntrySpec;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * p4sim's P4Runtime server driven by a client nobody here wrote: p4runtime-shell 0.0.6 from PyPI, in the
 * venv ci/bootstrap-p4runtime.sh makes under .cache/ (created on first use). The shell sets the pipeline
 * from the P4Info p4sim writes, reads the P4Info, inserts entries and reads them back, programs an action selector (members, a group, an entry running
 * it) and reads it back, sends a packet-out
 * and receives the packet-in (src/test/python/shell_check.py); then the switch's own state is checked.
 */
class P4RuntimeShellTest {
    private static final Path ROOT = Path.of(System.getProperty("innet.root", "../.."));

    @Test
    void p4runtimeShellInsertsReadsAndExchangesPackets(@TempDir Path dir) throws Exception {
        String python = shellVenvPython();
        try (TestSwitch ts = new TestSwitch()) {
            Path p4info = dir.resolve("p4rt.p4info.txt");
            Files.writeString(p4info, TextFormat.printer().printToString(ts.p4info));
            Path program = Path.of(TestSwitch.class.getResource("/p4rt.p4").toURI());
            Path script = ROOT.resolve("impl-java/p4runtime/src/test/python/shell_check.py");
            Process p = new ProcessBuilder(python, script.toString(), "127.0.0.1:" + ts.server.port(), p4info.toString(), program.toString())
                    .redirectErrorStream(true).start();
            boolean done = p.waitFor(90, TimeUnit.SECONDS);
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!done) {
                p.destroyForcibly();
            }
            assertTrue(done, "p4runtime-shell did not finish in 90 s:\n" + out);
            assertEquals(0, p.exitValue(), "p4runtime-shell failed:\n" + out);
            assertTrue(out.contains("ok: p4info tables MyIngress.acl MyIngress.ecmp MyIngress.fwd MyIngress.learned"), out);
            assertTrue(out.contains("ok: read back fwd port=3, acl priority=10"), out);
            assertTrue(out.contains("ok: action selector members [1, 2], group 7, ecmp entry runs group 7"), out);
            assertTrue(out.contains("ok: packet-in of 16 bytes, ingress_port=64"), out);
            // what the shell wrote is in the switch, seen through p4sim's own control API
            synchronized (ts.sw) {
                List<EntrySpec> fwd = ts.sw.control().readEntries("MyIngress.fwd");
                assertEquals(1, fwd.size());
                assertEquals("MyIngress.set_port", fwd.getFirst().action());
                assertEquals(List.of(BigInteger.valueOf(3)), fwd.getFirst().args());
                assertEquals(10, ts.sw.control().readEntries("MyIngress.acl").getFirst().priority());
            }
        }
    }

    /** The venv's python, made by the project's own script (PyPI only) when it is not there yet. */
    private static String shellVenvPython() throws Exception {
        Process p = new ProcessBuilder("bash", ROOT.resolve("ci/bootstrap-p4runtime.sh").toString(), "shell")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), "ci/bootstrap-p4runtime.sh shell failed: " + out);
        String[] lines = out.split("\n");
        return lines[lines.length - 1];
    }
}
