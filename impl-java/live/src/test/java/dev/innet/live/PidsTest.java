package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Process identity by pid and start time, read in one piece from /proc/PID/stat. */
class PidsTest {
    @Test
    void aStatLineIsParsedAfterTheLastParenthesisOfTheCommandName() {
        // field 2 may hold spaces and ')': fields are counted after the last ')'
        String line = "4242 (java (x) y) Z 1 4242 4242 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 3 0 987654 0 0";
        assertEquals(new Pids.Stat("Z", 987654), Pids.Stat.parse(line));
    }

    @Test
    void aRunningProcessIsAliveAndAnExitedOneIsNot() throws Exception {
        long me = ProcessHandle.current().pid();
        long ticks = Pids.startTicks(me).orElseThrow();
        assertTrue(Pids.alive(me, ticks));
        assertFalse(Pids.alive(me, ticks + 1), "another start time is another process");

        Process sleeper = new ProcessBuilder("sleep", "30").start();
        long pid = sleeper.pid();
        long started = Pids.startTicks(pid).orElseThrow();
        assertTrue(Pids.alive(pid, started));
        sleeper.destroyForcibly();
        assertTrue(sleeper.waitFor(10, TimeUnit.SECONDS));
        assertFalse(Pids.alive(pid, started), "killed and reaped: not alive");
        assertTrue(Pids.startTicks(pid).isEmpty() || Pids.startTicks(pid).get() != started);
    }
}
