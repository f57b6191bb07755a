package dev.innet.rack;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.check.RunVerdict;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Shared plumbing of rack tests in every protocol module (through rack's test jar): the repository root,
 * quiet output, and the history checks.
 */
public final class RackRuns {
    public static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    static final Path HISTORIES = Path.of("target", "histories");

    private RackRuns() {}

    public static Path root() {
        String root = System.getProperty("innet.root");
        if (root == null) {
            throw new IllegalStateException("system property innet.root is not set (run through Maven)");
        }
        return Path.of(root).toAbsolutePath().normalize();
    }

    public static RunVerdict verdict(Rack rack, String name) throws IOException, InterruptedException {
        return RunVerdict.of(root(), rack, HISTORIES, name);
    }

    public static void assertSafe(Rack rack, String name) throws IOException, InterruptedException {
        assertTrue(rack.stats().completed > 0, name + ": nothing completed");
        RunVerdict v = verdict(rack, name);
        assertTrue(v.safe(), v.describe());
    }
}
