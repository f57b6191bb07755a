package dev.innet.live;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the system tools a live rack needs ({@code ip}, {@code ethtool}) and waits for them. A tool that
 * fails is one exception whose message is the command line and the tool's own error text.
 */
final class Commands {
    private static final long TIMEOUT_SECONDS = 20;

    record Result(int exit, String output) {
        boolean ok() {
            return exit == 0;
        }
    }

    private Commands() {}

    /** Runs {@code argv}; a non-zero exit is an error. */
    static String run(String... argv) {
        Result r = tryRun(argv);
        if (!r.ok()) {
            throw new IllegalStateException(String.join(" ", argv) + ": " + r.output().strip() + " (exit " + r.exit() + ")");
        }
        return r.output();
    }

    /** Runs {@code argv} and reports how it ended, for commands whose failure is expected (deleting what is gone). */
    static Result tryRun(String... argv) {
        try {
            Process p = new ProcessBuilder(List.of(argv)).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "did not finish within " + TIMEOUT_SECONDS + " s");
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Result(-1, "cannot run " + argv[0] + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    /** Whether {@code tool} is an executable on PATH. */
    static boolean onPath(String tool) {
        return which(tool).isPresent();
    }

    /** The absolute path of executable {@code tool} on PATH (then /usr/sbin, /sbin), if there is one. */
    static java.util.Optional<String> which(String tool) {
        String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin";
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, tool))) {
                return java.util.Optional.of(java.nio.file.Path.of(dir, tool).toAbsolutePath().toString());
            }
        }
        return java.util.Optional.empty();
    }

    /** Whether this process runs as root (uid 0), read from /proc: live racks need it. */
    static boolean runningAsRoot() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[1].equals("0");
                }
            }
        } catch (IOException e) {
            // not Linux: not root as far as the rack is concerned
        }
        return false;
    }
}
