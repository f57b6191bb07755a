package dev.innet.rack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.check.Lincheck;
import dev.innet.rack.check.LostWriteMonitor;
import java.io.IOException;
import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Shared plumbing of rack tests: the repository root, quiet output, and the two history checks. */
final class RackRuns {
    static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private RackRuns() {}

    static Path root() {
        String root = System.getProperty("innet.root");
        if (root == null) {
            throw new IllegalStateException("system property innet.root is not set (run through Maven)");
        }
        return Path.of(root).toAbsolutePath().normalize();
    }

    /** Writes the run's history under target/ and returns porcupine's verdict. */
    static Lincheck.Result lincheck(Rack rack, String name) throws IOException, InterruptedException {
        Path dir = Path.of("target", "histories");
        Files.createDirectories(dir);
        Path file = dir.resolve(name + ".jsonl");
        Files.writeString(file, rack.history().toJsonLines());
        return Lincheck.check(root(), file, null, 30);
    }

    static void assertSafe(Rack rack, String name) throws IOException, InterruptedException {
        List<LostWriteMonitor.Violation> lost = LostWriteMonitor.check(rack.history());
        assertEquals(List.of(), lost, name + " (seed " + rack.simulation().seed() + "): acknowledged writes lost");
        Lincheck.Result r = lincheck(rack, name);
        assertEquals(Lincheck.Verdict.LINEARIZABLE, r.verdict(), name + " (seed " + rack.simulation().seed() + "): "
                + r.output());
        assertTrue(rack.stats().completed > 0, name + ": nothing completed");
    }
}
