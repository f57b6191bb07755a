package dev.innet.app.bench.visibility;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.app.bench.RackRunner;
import dev.innet.app.bench.plot.PlotHtml;
import dev.innet.cli.Cli;
import dev.innet.visibility.VisibilityProtocol;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny configuration of {@code ./innet bench visibility}: both racks really run (p4/visibility.p4 and its
 * ordered-write baseline on p4sim, the Java nodes and clients), and the model's figures must show what the
 * message patterns imply.
 */
class VisibilityBenchTest {
    static final Path ROOT = Path.of(System.getProperty("innet.root")).toAbsolutePath().normalize();

    @Test
    void visibilityLayerHalvesWriteLatencyAgainstOrderedWrites(@TempDir Path dir) throws Exception {
        var w = VisibilityWorkloads.of("write-only", 1.0, 1_000_000);
        RackRunner runner = new RackRunner(ROOT, 42);
        OperationMix vis = OperationMix.of(runner.run(new VisibilityProtocol(), w, VisibilityBench.RACK_SERVERS, 0, 400));
        OperationMix base = OperationMix.of(runner.withProgramSource(OrderedWriteBaseline.write(ROOT, dir))
                .run(new VisibilityProtocol(), w, VisibilityBench.RACK_SERVERS, 0, 400));

        // The real switch made most writes visible; with W2 off, none, and every write took the second phase.
        assertTrue(vis.acceleratedWrites() > 0.8, vis.describe());
        assertTrue(vis.orderedUpdates() < 0.2, vis.describe());
        assertEquals(0, base.acceleratedWrites(), base.describe());
        assertTrue(base.orderedUpdates() >= 0.99, base.describe());

        var rows = VisibilityBench.compare("write-only", vis, base, VisibilityTestbed.paper(), List.of(6, 768), 20_000,
                new PrintStream(OutputStream.nullOutputStream())).rows();
        var light = rows.get(0);
        // One round trip instead of two: about half the median (the paper: 43.3%-50.0% lower).
        assertTrue(light.p50Reduction() > 0.35 && light.p50Reduction() < 0.6, "p50 reduction " + light.p50Reduction());
        assertTrue(light.visibilityWrites().p99() < light.baselineWrites().p99());
        // Closed loop below saturation: throughput follows latency.
        assertTrue(light.throughputGain() > 0.5, "gain " + light.throughputGain());
        // Saturated at 768 outstanding: the data nodes bound both systems alike.
        var heavy = rows.get(1);
        assertTrue(Math.abs(heavy.throughputGain()) < 0.1, "gain at saturation " + heavy.throughputGain());
    }

    /**
     * {@code --plot} on a short run: per workload and testbed, latency against throughput (Fig. 6 and 7), and for
     * write-only the reductions and gain with the paper's §V-B figures beside them.
     */
    @Test
    void plotDrawsEachWorkloadAndTestbedWithThePapersFigures(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run("innet bench visibility", new VisibilityBench(), new String[] {"--root", ROOT.toString(), "--quick",
            "--ops", "400", "--outstanding", "6,24,768", "--plot", dir.toString()},
                new PrintStream(OutputStream.nullOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        PlotHtml html = PlotHtml.read(dir);
        // write-only: two figures on each of the two testbeds; 50% writes: one on each
        assertEquals(6, html.figures().size());
        String fig6 = html.figures().get(0);
        assertTrue(fig6.contains("Fig. 6"), fig6);
        assertEquals(4 * 3, PlotHtml.modelMarks(fig6), "p50 and p99 of both systems at each outstanding count");
        String ratios = html.figures().get(1);
        assertEquals(3 * 3, PlotHtml.modelMarks(ratios), "p50 and p99 reduction and throughput gain per outstanding count");
        assertTrue(ratios.contains("paper: p50 reduction 43.3%-50.0%") && ratios.contains("paper: throughput gain up to +126.9%"),
                ratios);
        assertEquals(2, PlotHtml.count(ratios, "<path class=\"paper\""), "the p99 reduction at the two lowest loads");
        assertTrue(ratios.contains("39.40 (§V-B"));
    }

    @Test
    void baselineNeedsTheInstallRule(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("p4"));
        Files.writeString(dir.resolve("p4/visibility.p4"), "control MyIngress() { apply { } }\n");
        var e = assertThrows(IllegalStateException.class, () -> OrderedWriteBaseline.write(dir, dir.resolve("out")));
        assertTrue(e.getMessage().contains("W2"), e.getMessage());
    }

    @Test
    void paperWorkloadSkewAndTestbedDerivation() {
        // §V-A 3: "49.1% operations access the hottest 1 in 10,000 keys" of 250 M
        assertEquals(0.491, VisibilityWorkloads.shareOfHottest(25_000, 250_000_000L), 0.03);
        VisibilityTestbed t = VisibilityTestbed.paper();
        // an RPC crosses four legs plus the node: the data write phase 5.2 us, the visibility phase 4.9 us
        assertEquals(5.2e-6, 4 * t.legSeconds() + t.dataServiceSeconds(), 1e-9);
        assertEquals(4.9e-6, 4 * t.legSeconds() + t.metadataServiceSeconds(), 1e-9);
        VisibilityTestbed u = t.unsaturatedAt(768);
        assertEquals(t.dataServiceSeconds(), u.dataServiceSeconds() + u.dataDelaySeconds(), 1e-12);
        assertTrue(u.dataServiceSeconds() < t.dataServiceSeconds());
    }

    @Test
    void badOptionsExitWithTwo() {
        for (String[] args : List.of(new String[] {"--ops", "5"}, new String[] {"--outstanding", "0"},
                new String[] {"--rack-clients", "0"}, new String[] {"--control-message-us", "-1"},
                new String[] {"--nonsense"}, new String[] {"--root", ROOT.toString(), "--plot", "README.md/figures"})) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = Cli.run("innet bench visibility", new VisibilityBench(), args,
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(2, code, String.join(" ", args) + ": " + err);
            assertTrue(err.toString(StandardCharsets.UTF_8).lines().count() <= 2, err.toString(StandardCharsets.UTF_8));
        }
    }
}
