package dev.innet.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import dev.innet.protocol.Protocol;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./innet sim --program visibility --crashes} through the command line itself: a protocol that declares the
 * crashes it recovers from (the visibility layer: switch, switch OS, every server) gets them at times drawn from the
 * seed, with colliding keys, and each run is checked by porcupine and the lost-write monitor. The real protocol
 * passes; a crash-recovery bug (data nodes replaying each key's oldest entry to a rebuilding metadata node) is
 * caught in the first seed with crashes and passes the same seed without them, so it is the crashes that catch it.
 */
class SimCrashCampaignTest {
    @TempDir
    Path out;

    private record Run(int exitCode, String output) {}

    /** Runs {@code innet sim} with {@code args} (SimMain prints its report on System.out, captured here). */
    private Run sim(String... args) {
        return simOf("visibility", args);
    }

    private Run simOf(String program, String... args) {
        List<String> all = new ArrayList<>(List.of("--program", program, "--servers", "3", "--chaos-ms", "30",
                "--validate", "0", "--out", out.toString()));
        all.addAll(List.of(args));
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            code = Cli.run("innet sim", new SimMain(), all.toArray(String[]::new), System.out,
                    new PrintStream(err, true, StandardCharsets.UTF_8));
        } finally {
            System.setOut(stdout);
        }
        String output = captured.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        System.out.println(output.lines().limit(12).reduce("", (a, b) -> a + b + "\n"));
        return new Run(code, output);
    }

    @Test
    void theVisibilityLayerSurvivesItsCrashCampaign() throws Exception {
        Run r = sim("--crashes", "--seeds", "2");
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("visibility: keys colliding in 8 switch slots under 4 fingerprints; crashes of "
                + "[switch, controller, every server]"), r.output());
        assertTrue(Files.exists(out.resolve("visibility-seed1.jsonl")) && Files.exists(out.resolve("visibility-seed2.jsonl")),
                "histories under --out");
    }

    @Test
    void aRebuildFromStaleEntriesIsCaughtOnlyWithCrashes() {
        Run crashing = sim("--crashes", "--seeds", "1", "--seeded-bug", Protocol.DATA_NODES_REPLAYING_OLDEST);
        assertEquals(1, crashing.exitCode(), crashing.output());
        assertTrue(crashing.output().contains("NOT LINEARIZABLE"), crashing.output());
        Run calm = sim("--seeds", "1", "--seeded-bug", Protocol.DATA_NODES_REPLAYING_OLDEST);
        assertEquals(0, calm.exitCode(), "without crashes no metadata node rebuilds from a non-empty log: " + calm.output());
    }

    /**
     * The file-system namespace runs on the same layer and recovers the same way; the same rebuild bug in its data
     * nodes (each path's oldest inode replayed) is caught with crashes, under the file model, and passes without them.
     */
    @Test
    void theFileSystemsRebuildFromStaleInodesIsCaughtOnlyWithCrashes() {
        Run real = simOf("visibility-fs", "--crashes", "--seeds", "1");
        assertEquals(0, real.exitCode(), real.output());
        Run crashing = simOf("visibility-fs", "--crashes", "--seeds", "1", "--seeded-bug", Protocol.DATA_NODES_REPLAYING_OLDEST);
        assertEquals(1, crashing.exitCode(), crashing.output());
        assertTrue(crashing.output().contains("NOT LINEARIZABLE"), crashing.output());
        Run calm = simOf("visibility-fs", "--seeds", "1", "--seeded-bug", Protocol.DATA_NODES_REPLAYING_OLDEST);
        assertEquals(0, calm.exitCode(), "without crashes no metadata node rebuilds from a non-empty log: " + calm.output());
    }

    @Test
    void aSeededBugNoChosenProtocolHasIsAUsageError() {
        Run r = sim("--seeded-bug", "no-such-bug");
        assertEquals(Cli.EXIT_USAGE, r.exitCode(), r.output());
        assertTrue(r.output().contains("no-such-bug"), r.output());
    }
}
