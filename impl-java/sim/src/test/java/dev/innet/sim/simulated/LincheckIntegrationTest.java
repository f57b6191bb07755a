package dev.innet.sim.simulated;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * End to end: simulated histories checked by the Go checker (jepsen/cmd/lincheck, docs/lincheck.md).
 * The correct server's history must be linearizable; the server that re-applies duplicated writes
 * must be caught on a seed whose network duplicates a write after a later one was acknowledged.
 * Skipped when {@code go} is not on PATH or with {@code -Dinnet.sim.lincheck=false}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LincheckIntegrationTest {
    private static final int EXIT_LINEARIZABLE = 0;
    private static final int EXIT_NOT_LINEARIZABLE = 1;

    @Test
    void correctServerIsLinearizableAndTheDuplicateForgettingServerIsCaught() throws Exception {
        assumeTrue(Boolean.parseBoolean(System.getProperty("innet.sim.lincheck", "true")), "disabled by innet.sim.lincheck=false");
        Path jepsen = Path.of(System.getProperty("innet.root", "../..")).resolve("jepsen");
        assumeTrue(Files.isDirectory(jepsen.resolve("cmd/lincheck")), "no jepsen/cmd/lincheck in this checkout");
        assumeTrue(onPath("go"), "go is not on PATH");
        Path dir = Files.createDirectories(Path.of("target", "sim-histories"));

        Path good = dir.resolve("kv-correct-seed-7.jsonl");
        Files.writeString(good, TwoPhaseKvTest.runKv(7, false, null));
        assertEquals(EXIT_LINEARIZABLE, lincheck(jepsen, good), "seed=7 correct server: " + good);

        int caught = 0;
        StringBuilder tried = new StringBuilder();
        for (long seed = 1; seed <= 20 && caught == 0; seed++) {
            Path bad = dir.resolve("kv-forgets-duplicates-seed-" + seed + ".jsonl");
            Files.writeString(bad, TwoPhaseKvTest.runKv(seed, true, null));
            int exit = lincheck(jepsen, bad);
            tried.append(" seed=").append(seed).append(":exit ").append(exit);
            if (exit == EXIT_NOT_LINEARIZABLE) {
                caught++;
            }
        }
        assertEquals(1, caught, "no seed exposed the server that re-applies duplicated writes:" + tried);
    }

    private static int lincheck(Path jepsen, Path history) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("go", "run", "./cmd/lincheck", history.toAbsolutePath().toString())
                .directory(jepsen.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        System.out.println("lincheck " + history.getFileName() + " -> exit " + exit + ": " + output.strip());
        return exit;
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
