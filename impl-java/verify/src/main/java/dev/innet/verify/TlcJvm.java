package dev.innet.verify;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
    public static List<String> command(Path java, String heap, Path tmpDir, Compilers compilers) {
        return command(java, heap, tmpDir, compilers,
                TlcAotCache.shared().cacheFor(java).map(cache -> "-XX:AOTCache=" + cache));
    }

    /** The same, with {@code aotOption} (the cache to use, or the one a training run writes) when given. */
    static List<String> command(Path java, String heap, Path tmpDir, Compilers compilers, Optional<String> aotOption) {
        List<String> command = new ArrayList<>(List.of(java.toString(), "-XX:+UseParallelGC", "-Xss8m",
                "-Xmx" + heap, "-Xlog:disable", "-Xlog:all=warning:stderr"));
        if (compilers == Compilers.C1_ONLY) {
            command.add("-XX:TieredStopAtLevel=1");
        }
        aotOption.ifPresent(command::add);
        command.addAll(List.of("-Djava.io.tmpdir=" + tmpDir, "-cp", TlcRunner.locateTlaJar().toString(),
                "tlc2.TLC"));
        return command;
    }

    /**
     * Which JIT compilers a TLC run gets. Measured with the AOT cache (2026-12-02, CPU-seconds): C1 alone
     * halves a refuted variant that stops within seconds (4.6 -> 2.2) and a trace validation, which
     * follows one recorded behaviour through large constant data (pegasus, 3,091 events: 13.8 -> 7.3),
     * and costs little on most longer searches; but an exhaustive search of 30 CPU-s took 36% longer
     * without C2 ({@code MCFarReachRecovery}: 29 -> 39).
     */
    public enum Compilers {
        /** Runs that stop early or follow few behaviours: refuted variants, trace validation, short simulations. */
        C1_ONLY,
        /** Exhaustive searches and long simulations: C1, then C2 for hot code. */
        TIERED
    }

    /** The java executable this JVM runs on: TLC's children use the same JDK. */
    public static Path currentJava() {
        return ProcessHandle.current().info().command().map(Path::of)
                .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java"));
    }
}
