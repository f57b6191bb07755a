package dev.innet.app.bench.lake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.app.bench.plot.PlotHtml;
import dev.innet.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bad option to {@code ./innet bench lake} is one line naming it, exit 2, and nothing runs; a short run
 * without the live rack writes its figures with {@code --plot}.
 */
class LakeBenchArgumentsTest {
    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream report = new PrintStream(out, true, StandardCharsets.UTF_8);
        int code = Cli.run("innet bench lake", new LakeBench(report), args, report,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void badOptionsAreRefusedBeforeAnythingRuns() {
        for (String[] args : new String[][] {{"--seconds", "0"}, {"--threads", "-1"}, {"--rounds", "0"}, {"--keys", "x"},
                {"--bogus"}, {"--plot", "README.md/figures"}}) {
            String[] r = run(args);
            assertEquals("2", r[0], String.join(" ", args) + ": " + r[2]);
            assertTrue(r[1].isEmpty(), "nothing ran: " + r[1]);
            assertTrue(r[2].contains(args[0].replace("--", "")) || r[2].contains("Unknown option"), r[2]);
        }
    }

    /**
     * {@code --no-live --plot}: p4sim's rate for each path, memcached alone if it is installed, the model's
     * throughput per mix with the paper's Table I beside it, and the simulator's latency per path beside the
     * paper's per-layer latencies.
     */
    @Test
    void plotDrawsWhatARunWithoutTheLiveRackMeasured(@TempDir Path dir) throws Exception {
        String[] r = run("--no-live", "--seconds", "0.2", "--threads", "1", "--keys", "64", "--plot", dir.toString());
        assertEquals("0", r[0], r[2]);
        PlotHtml html = PlotHtml.read(dir);
        boolean memcached = Files.isExecutable(Path.of("/usr/bin/memcached"));
        assertEquals(memcached ? 4 : 3, html.figures().size());
        assertEquals(LakeBench.PATHS.size(), PlotHtml.modelMarks(html.figure("packets per CPU-second")));
        String model = html.figure("saturation throughput (Mqps)");
        assertEquals(3, PlotHtml.modelMarks(model), "the paper's two mixes and memcached alone");
        assertEquals(2, PlotHtml.count(model, "<path class=\"paper\""), "Table I's 13.1 Mqps and memcached's 13.1 / 13.6");
        assertTrue(model.contains("13.10 (Table I"), model);
        String timing = html.figure("device latency (µs)");
        assertEquals(3, PlotHtml.modelMarks(timing));
        assertTrue(timing.contains("1.16 (§IV-A") && timing.contains("5.60 (§IV-A"), timing);
    }
}
