package dev.innet.verify;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a checker as a child process, output captured to a log file, with a hard time limit. */
public final class ToolProcess {
    public record Result(int exitCode, String output, boolean timedOut, long millis) {}

    private ToolProcess() {}

    public static Result run(List<String> command, Path workingDirectory, Path log, Duration limit)
            throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        long start = System.nanoTime();
        Process process = builder.start();
        boolean finished = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor();
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        String output = Files.readString(log);
        return new Result(finished ? process.exitValue() : -1, output, !finished, millis);
    }
}
