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
        return stat(pid).map(Stat::startTicks);
    }

    /**
     * Whether the recorded process is still the one running under its pid (and not a zombie). State and
     * start time come from one read of {@code /proc/PID/stat}: with two reads, a zombie reaped between them
     * (a killed JVM stays a zombie while its threads exit) read as running, so a restart right after a kill
     * refused the process as "still running" (seen in a clean-clone CI run, LiveDistCacheRackTest).
     */
    static boolean alive(long pid, long startTicks) {
        Optional<Stat> now = stat(pid);
        return now.isPresent() && now.get().startTicks() == startTicks && !now.get().state().equals("Z");
    }

    /** Field 3 (state) and field 22 (start time in clock ticks since boot) of one read of /proc/PID/stat. */
    record Stat(String state, long startTicks) {
        /** Parses a stat line; the command name (field 2) is in parentheses and may hold spaces and ')'. */
        static Stat parse(String stat) {
            int close = stat.lastIndexOf(')');
            String[] rest = stat.substring(close + 2).split(" ");
            // rest[0] is field 3 (state), so field 22 is rest[19]
            return new Stat(rest[0], Long.parseLong(rest[19]));
        }
    }

    /** The process's stat, or empty if it no longer exists (gone, or reaped while being read). */
    private static Optional<Stat> stat(long pid) {
        try {
            return Optional.of(Stat.parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))));
        } catch (IOException e) {
            return Optional.empty();
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
