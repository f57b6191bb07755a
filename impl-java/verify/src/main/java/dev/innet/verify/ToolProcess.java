package dev.innet.verify;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/** Runs a checker as a child process, output captured to a log file, with a hard time limit. */
public final class ToolProcess {
    /**
     * What the process did: its exit code (-1 when it was killed), its whole output, whether the time
     * limit killed it, whether it was stopped at the first line matching its stop pattern, and the time.
     */
    public record Result(int exitCode, String output, boolean timedOut, boolean stoppedEarly, long millis) {}

    /** How often a process with a stop pattern has its new output read. */
    private static final long POLL_MILLIS = 100;

    /**
     * The checkers running now. When this JVM is stopped (Ctrl-C, SIGTERM) they are killed with it: a TLC
     * or ivy_check left behind would go on using the cores for minutes with nobody to read its verdict.
     */
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            RUNNING.forEach(ToolProcess::kill);
        }, "innet-kill-checkers"));
    }

    private ToolProcess() {}

    public static Result run(List<String> command, Path workingDirectory, Path log, Duration limit)
            throws IOException, InterruptedException {
        return run(command, workingDirectory, log, limit, Map.of(), null);
    }

    /**
     * Runs {@code command} with {@code environment} added to this process's, and, when {@code stopAt} is
     * given, kills it as soon as a line of its output matches: a checker whose first failure settles
     * the verdict need not check the rest.
     */
    public static Result run(List<String> command, Path workingDirectory, Path log, Duration limit,
            Map<String, String> environment, Pattern stopAt) throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        Process process = builder.start();
        RUNNING.add(process);
        boolean awaited = false;
        try {
            Result result = await(process, log, start, deadline, limit, stopAt);
            awaited = true;
            return result;
        } finally {
            if (!awaited) { // interrupted, or the log unreadable: the checker must not outlive its caller
                kill(process);
            }
            RUNNING.remove(process);
        }
    }

    private static Result await(Process process, Path log, long start, long deadline, Duration limit, Pattern stopAt)
            throws IOException, InterruptedException {
        boolean finished;
        boolean stopped = false;
        if (stopAt == null) {
            finished = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
        } else {
            LineWatcher watcher = new LineWatcher(log, stopAt);
            while (true) {
                long left = deadline - System.nanoTime();
                finished = process.waitFor(Math.max(0, Math.min(left, POLL_MILLIS * 1_000_000)), TimeUnit.NANOSECONDS);
                if (finished || left <= 0) {
                    break;
                }
                if (watcher.matched()) {
                    stopped = true;
                    break;
                }
            }
        }
        if (!finished) {
            kill(process);
            process.waitFor();
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        String output = Files.readString(log);
        return new Result(finished ? process.exitValue() : -1, output, !finished && !stopped, stopped, millis);
    }

    /** Kills a checker and whatever it started (TLC's AOT step, Python's children), without waiting. */
    private static void kill(Process process) {
        // the parent first, from a list of its descendants taken before: killed the other way round, a shell
        // parent runs on for a moment after its child's death and writes more lines (seen in CI: "Killed", then
        // the next command's output); killed first without the list, its children are re-parented and lost
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    /** Reads a growing log file's complete lines as they appear and looks for a match. */
    private static final class LineWatcher {
        private final Path log;
        private final Pattern pattern;
        private long offset;
        private final StringBuilder partial = new StringBuilder();

        LineWatcher(Path log, Pattern pattern) {
            this.log = log;
            this.pattern = pattern;
        }

        boolean matched() throws IOException {
            try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
                long length = file.length();
                if (length <= offset) {
                    return false;
                }
                byte[] bytes = new byte[(int) Math.min(length - offset, 1 << 20)];
                file.seek(offset);
                file.readFully(bytes);
                offset += bytes.length;
                partial.append(new String(bytes, StandardCharsets.UTF_8));
            }
            int end;
            while ((end = partial.indexOf("\n")) >= 0) {
                String line = partial.substring(0, end);
                partial.delete(0, end + 1);
                if (pattern.matcher(line).find()) {
                    return true;
                }
            }
            return false;
        }
    }
}
