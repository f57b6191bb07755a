package dev.innet.rack.check;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs porcupine through the project's Go command ({@code jepsen/cmd/lincheck}, built by
 * {@code ./innet setup} into {@code .cache/bin/lincheck}) on a history file. The verdict comes from
 * the command's exit status (docs/lincheck.md): 0 linearizable, 1 not, 2 unknown (timeout), 3 bad input.
 */
public final class Lincheck {
    public enum Verdict { LINEARIZABLE, NOT_LINEARIZABLE, UNKNOWN }

    public record Result(Verdict verdict, String output) {}

    private Lincheck() {}

    public static Path binary(Path repositoryRoot) {
        Path bin = repositoryRoot.resolve(".cache/bin/lincheck");
        if (!Files.isExecutable(bin)) {
            throw new IllegalStateException("porcupine checker not built at " + bin + ": run ./innet setup");
        }
        return bin;
    }

    public static Result check(Path repositoryRoot, Path history, Path html, int timeoutSeconds)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(binary(repositoryRoot).toString(), "-timeout", timeoutSeconds + "s"));
        if (html != null) {
            cmd.addAll(List.of("-html", html.toString()));
        }
        cmd.add(history.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(timeoutSeconds * 3L + 30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("lincheck did not finish");
        }
        String text = new String(out, java.nio.charset.StandardCharsets.UTF_8);
        return switch (p.exitValue()) {
            case 0 -> new Result(Verdict.LINEARIZABLE, text);
            case 1 -> new Result(Verdict.NOT_LINEARIZABLE, text);
            case 2 -> new Result(Verdict.UNKNOWN, text);
            default -> throw new IllegalStateException("lincheck failed (exit " + p.exitValue() + "): " + text);
        };
    }
}
