package dev.innet.verify;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line every TLC child JVM starts with, up to and including {@code tlc2.TLC}: model
 * checking ({@link TlcRunner}), trace validation and trace generation all start TLC the same way.
 *
 * <p>Most TLC runs here are short (a refuted variant takes a few seconds), so JVM start-up, class
 * loading and the JIT's warm-up are a large share of their CPU time. {@link TlcAotCache} gives every
 * run JDK 25's ahead-of-time cache of TLC's loaded and linked classes and method profiles
 * (docs/models.md, "Tiers and the test budget").
 */
public final class TlcJvm {
    private TlcJvm() {}

    /**
     * {@code java} with TLC's recommended GC, a deep stack (TLC recurses over expressions), the heap,
     * a private {@code java.io.tmpdir} (TLC unpacks its standard modules there; runs in parallel must
     * not share it), the AOT cache when there is one, and JVM log lines on stderr so that nothing but
     * TLC writes to stdout.
     */
    public static List<String> command(Path java, String heap, Path tmpDir, RunLength length) {
        List<String> command = new ArrayList<>(List.of(java.toString(), "-XX:+UseParallelGC", "-Xss8m",
                "-Xmx" + heap, "-Xlog:disable", "-Xlog:all=warning:stderr"));
        if (length == RunLength.SECONDS) {
            command.add("-XX:TieredStopAtLevel=1");
        }
        TlcAotCache.shared().cacheFor(java).ifPresent(cache -> command.add("-XX:AOTCache=" + cache));
        command.addAll(List.of("-Djava.io.tmpdir=" + tmpDir, "-cp", TlcRunner.locateTlaJar().toString(),
                "tlc2.TLC"));
        return command;
    }

    /**
     * How long a run is expected to take, which decides the JIT. Measured with the AOT cache (2026-12-02):
     * C1 alone halves the CPU time of a refuted variant that stops after a few seconds and costs nothing
     * on most longer ones, but one ok model of 30 CPU-s took 36% longer without C2.
     */
    public enum RunLength {
        /** A run that stops early, such as a refuted variant's search for its counterexample: C1 only. */
        SECONDS,
        /** Everything else: C1, then C2 for hot code. */
        LONGER
    }

    /** The java executable this JVM runs on: TLC's children use the same JDK. */
    public static Path currentJava() {
        return ProcessHandle.current().info().command().map(Path::of)
                .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java"));
    }
}
