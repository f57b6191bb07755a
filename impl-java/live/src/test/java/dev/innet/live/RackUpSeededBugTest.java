package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import dev.innet.lake.LakeProtocol;
import dev.innet.protocol.Protocol;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code rack up --seeded-bug} (hidden, tests only): a bug the protocol's servers or switch program cannot have is a
 * bad argument naming it, before anything is made; LaKe's switch bug changes exactly lake.p4's two
 * invalidations of a refused reply's slot.
 */
class RackUpSeededBugTest {
    private static final Path ROOT = Path.of(System.getProperty("innet.root")).toAbsolutePath().normalize();

    private record Run(int exit, String out) {}

    private static Run up(String protocol, String bug) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int exit = Cli.run("rack", new RackMain(out, out), new String[] {"--root", ROOT.toString(), "up", "--protocol", protocol,
                "--name", "sbt" + ProcessHandle.current().pid() % 100_000, "--seeded-bug", bug}, out, out);
        return new Run(exit, bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aBugTheProtocolCannotHaveIsABadArgument() {
        for (String[] c : new String[][] {{"farreach", Protocol.SWITCH_KEEPING_COPIES_ON_REJECT, "switch program"},
            {"farreach", Protocol.SERVERS_SKIPPING_PHASE_ONE, "servers cannot have it"},
            {"lake", Protocol.DATA_NODES_RESTAMPING_RETRIES, "servers cannot have it"},
            {"visibility", Protocol.SERVERS_IGNORING_SEQUENCE_NUMBERS, "do not number writes"}}) {
            Run r = up(c[0], c[1]);
            assertEquals(Cli.EXIT_USAGE, r.exit(), r.out());
            assertTrue(r.out().contains("--seeded-bug " + c[1]) && r.out().contains(c[2]), r.out());
        }
        assertFalse(Files.exists(ROOT.resolve(".cache/rack").resolve("sbt" + ProcessHandle.current().pid() % 100_000)),
                "nothing may be made after a bad argument");
    }

    @Test
    void lakesSwitchBugTurnsOffBothInvalidationsOfARefusedReply() throws Exception {
        String source = Files.readString(ROOT.resolve("p4/lake.p4"));
        String seeded = new LakeProtocol().withSeededProgramBug(Protocol.SWITCH_KEEPING_COPIES_ON_REJECT, source).orElseThrow();
        assertEquals(2, seeded.split("seeded bug: the copy stays", -1).length - 1, "one per layer");
        assertEquals(source.length(), seeded.replace(" && false) { /* seeded bug: the copy stays */", ") {").length());
        assertTrue(new LakeProtocol().withSeededProgramBug(Protocol.SERVERS_IGNORING_SEQUENCE_NUMBERS, source).isEmpty());
    }
}
