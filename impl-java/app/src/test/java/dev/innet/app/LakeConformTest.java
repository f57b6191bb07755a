package dev.innet.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import dev.innet.rack.RackRuns;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ./innet conform --protocol lake, end to end: LaKe's curated traces and a few simulated behaviours. */
class LakeConformTest {
    @TempDir
    Path out;

    @Test
    void lakeCuratedTracesAndSimulatedBehavioursReplayWithCoverage() {
        System.setProperty("innet.root", RackRuns.root().toString());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        String[] args = {"--protocol", "lake", "--simulate", "3", "--seed", "1", "--model", "MCLakeConform",
            "--out", out.toString()};
        PrintStream previous = System.out;
        int code;
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            code = Cli.run("innet conform", new ConformMain(), args, System.out, System.err);
        } finally {
            System.setOut(previous);
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text);
        // 5 curated + 3 simulated, every one to its end
        assertTrue(text.contains("8 traces: 8 passed, 0 failed, 0 not fully replayed"), text);
        // the 4 actions of memcached restarts are named as not replayed (LakeReplay.NOT_REPLAYABLE)
        assertTrue(text.contains("spec actions replayed: 10 of 15"), text);
        assertTrue(text.contains("not replayed: HostWriteBack"), text);
        assertTrue(text.contains("not replayed: SwitchForget"), text);
        assertTrue(text.contains("P4 coverage: "), text);
    }
}
