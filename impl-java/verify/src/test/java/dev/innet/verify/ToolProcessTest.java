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

    /** A JVM that runs one long checker through ToolProcess, for the test below. */
    public static final class LongChecker {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[0]);
            ToolProcess.run(List.of("sh", "-c", "echo $$ > " + dir.resolve("pid") + ".tmp && mv " + dir.resolve("pid")
                    + ".tmp " + dir.resolve("pid") + " && exec sleep 300"), dir, dir.resolve("log"), Duration.ofMinutes(10));
        }
    }

    @Test
    void aCheckerDiesWithTheJvmThatStartedIt(@TempDir Path dir) throws Exception {
        Process jvm = new ProcessBuilder(TlcJvm.currentJava().toString(), "-cp", System.getProperty("java.class.path"),
                LongChecker.class.getName(), dir.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("jvm.log").toFile()).start();
        Path pidFile = dir.resolve("pid");
        long waited = 0;
        while (!java.nio.file.Files.exists(pidFile) && waited < 60_000) {
            Thread.sleep(100);
            waited += 100;
        }
        assertTrue(java.nio.file.Files.exists(pidFile), "the checker never started: "
                + (java.nio.file.Files.exists(dir.resolve("jvm.log")) ? java.nio.file.Files.readString(dir.resolve("jvm.log")) : ""));
        long checker = Long.parseLong(java.nio.file.Files.readString(pidFile).strip());
        assertTrue(ProcessHandle.of(checker).map(ProcessHandle::isAlive).orElse(false));
        jvm.destroy(); // SIGTERM, as a Ctrl-C or `kill` of ./innet verify
        jvm.waitFor();
        ProcessHandle.of(checker).ifPresent(h -> h.onExit().orTimeout(30, java.util.concurrent.TimeUnit.SECONDS).join());
        assertFalse(ProcessHandle.of(checker).map(ProcessHandle::isAlive).orElse(false),
                "the checker outlived the JVM that started it");
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
