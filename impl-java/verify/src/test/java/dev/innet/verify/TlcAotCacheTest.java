package dev.innet.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLC's ahead-of-time cache: made once, used by the JVM, reused, and never in the way. */
class TlcAotCacheTest {
    @Test
    void aTrainedCacheIsLoadedByTlcsJvmAndReusedWithoutTrainingAgain(@TempDir Path dir) throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, "the AOT cache needs JDK 25");
        Path java = TlcJvm.currentJava();
        // a failure recorded more than a day ago does not stop a new training
        Path failed = dir.resolve(TlcAotCache.cacheName() + ".failed");
        Files.writeString(failed, "training failed (timed out)");
        Files.setLastModifiedTime(failed, FileTime.from(Instant.now().minus(Duration.ofDays(2))));
        Optional<Path> made = new TlcAotCache(dir, true).cacheFor(java);
        assertTrue(made.isPresent(), "training made no cache");
        assertTrue(Files.size(made.get()) > 1_000_000, "an AOT cache of TLC's classes is megabytes");
        FileTime trained = Files.getLastModifiedTime(made.get());

        // TLC's main class comes from the cache, not the jar: the JVM accepted it
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xlog:class+load",
                "-XX:AOTCache=" + made.get(), "-XX:+UseParallelGC", "-Xss8m", "-Xmx1g", "-cp",
                TlcRunner.locateTlaJar().toString(), "tlc2.TLC", "-help"));
        ToolProcess.Result run = ToolProcess.run(command, dir, dir.resolve("help.log"), Duration.ofMinutes(1));
        assertTrue(run.output().contains("tlc2.TLC source: shared objects file"),
                "tlc2.TLC was not loaded from the cache:\n" + run.output().lines().filter(l -> l.contains("tlc2.TLC "))
                        .toList());

        // another process (a new instance) finds it and does not train again
        Optional<Path> again = new TlcAotCache(dir, true).cacheFor(java);
        assertEquals(made, again);
        assertEquals(trained, Files.getLastModifiedTime(again.get()));
        try (var files = Files.list(dir)) {
            assertFalse(files.anyMatch(f -> f.getFileName().toString().startsWith("training-")),
                    "the training directory was left behind");
        }
    }

    @Test
    void offOrAnotherJdkOrAFailedTrainingMeansRunsWithoutCache(@TempDir Path dir) throws Exception {
        Path java = TlcJvm.currentJava();
        assertEquals(Optional.empty(), new TlcAotCache(dir, false).cacheFor(java));
        // a java that is not this JVM's JDK: its version is unknown, so no cache is made for it
        assertEquals(Optional.empty(), new TlcAotCache(dir, true).cacheFor(Path.of("/bin/true")));
        // a training that failed is not tried again on every run (for a day)
        Files.writeString(dir.resolve(TlcAotCache.cacheName() + ".failed"), "training failed (exit 1)");
        assertEquals(Optional.empty(), new TlcAotCache(dir, true).cacheFor(java));
        assertFalse(Files.exists(dir.resolve(TlcAotCache.cacheName() + ".aot")));
    }
}
