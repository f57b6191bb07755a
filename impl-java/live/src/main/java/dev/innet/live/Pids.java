package dev.innet.live;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Process identity on Linux: a pid plus the process's start time (field 22 of {@code /proc/PID/stat},
 * in clock ticks since boot). A pid alone may name a different process once the recorded one has exited
 * and the kernel has reused the number; pid and start time together do not.
 */
final class Pids {
    private Pids() {}

    /** The start time of {@code pid}, or empty if no such process exists. */
    static Optional<Long> startTicks(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            return Optional.empty();
        }
        // the command name (field 2) is in parentheses and may hold spaces: count fields after its ')'
        int close = stat.lastIndexOf(')');
        String[] rest = stat.substring(close + 2).split(" ");
        // rest[0] is field 3 (state), so field 22 is rest[19]
        return Optional.of(Long.parseLong(rest[19]));
    }

    /** Whether the recorded process is still the one running under its pid (and not a zombie). */
    static boolean alive(long pid, long startTicks) {
        Optional<Long> now = startTicks(pid);
        if (now.isEmpty() || now.get() != startTicks) {
            return false;
        }
        return !state(pid).equals("Z");
    }

    private static String state(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[0];
        } catch (IOException e) {
            return "?";
        }
    }

    /**
     * Stops the recorded process: SIGTERM, then SIGKILL if it is still there after {@code graceMillis}.
     * Does nothing if the pid now belongs to another process. Returns whether it was running.
     */
    static boolean stop(long pid, long startTicks, long graceMillis) throws InterruptedException {
        if (!alive(pid, startTicks)) {
            return false;
        }
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isEmpty()) {
            return false;
        }
        h.get().destroy();
        long deadline = System.nanoTime() + graceMillis * 1_000_000;
        while (alive(pid, startTicks) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        if (alive(pid, startTicks)) {
            h.get().destroyForcibly();
            long killDeadline = System.nanoTime() + 5_000_000_000L;
            while (alive(pid, startTicks) && System.nanoTime() < killDeadline) {
                Thread.sleep(20);
            }
        }
        return true;
    }
}
