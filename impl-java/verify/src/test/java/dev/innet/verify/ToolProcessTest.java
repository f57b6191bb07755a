package dev.innet.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A checker stopped at its first failed check (IvyRunner's early stop), and one left to finish. */
class ToolProcessTest {
    @Test
    void aProcessIsStoppedAtTheFirstLineMatchingItsStopPattern(@TempDir Path dir) throws Exception {
        // the failure is printed in two writes, so the watcher must join a line split across reads
        List<String> command = List.of("sh", "-c",
                "echo \"checking $GREETING\"; printf 'm.ivy: line 3: inv ...'; sleep 0.3; echo ' FAIL'; sleep 30; echo never");
        ToolProcess.Result r = ToolProcess.run(command, dir, dir.resolve("log"), Duration.ofSeconds(60),
                Map.of("GREETING", "hello"), IvyRunner.FAILED_CHECK);
        assertTrue(r.stoppedEarly(), r.toString());
        assertFalse(r.timedOut());
        assertEquals(-1, r.exitCode());
        assertTrue(r.output().contains("checking hello"), "the environment was not passed: " + r.output());
        assertTrue(r.output().contains("m.ivy: line 3: inv ... FAIL"), r.output());
        assertFalse(r.output().contains("never"), "the process ran on after the match: " + r.output());
    }

    @Test
    void aProcessWithoutAMatchingLineRunsToItsEnd(@TempDir Path dir) throws Exception {
        List<String> command = List.of("sh", "-c", "echo 'm.ivy: line 3: inv ... PASS'; sleep 0.3; echo OK");
        ToolProcess.Result r = ToolProcess.run(command, dir, dir.resolve("log"), Duration.ofSeconds(60), Map.of(),
                IvyRunner.FAILED_CHECK);
        assertFalse(r.stoppedEarly());
        assertFalse(r.timedOut());
        assertEquals(0, r.exitCode());
        assertTrue(r.output().endsWith("OK\n"), r.output());
    }
}
