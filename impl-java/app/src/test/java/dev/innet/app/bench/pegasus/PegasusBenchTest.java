package dev.innet.app.bench.pegasus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.app.bench.RackRunner;
import dev.innet.app.bench.Testbed;
import dev.innet.app.bench.pegasus.PegasusExperiments.Measured;
import dev.innet.app.bench.plot.PlotHtml;
import dev.innet.app.bench.plot.PlotOption;
import dev.innet.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny {@code ./innet bench pegasus}: real racks (p4/pegasus.p4, nocache.p4, netcache.p4 on p4sim) on 8
 * servers and 100,000 keys, priced on the paper's testbed. It checks the paper's qualitative findings, each
 * of which a broken protocol or a broken pricing would lose: Pegasus balances a zipf-1.2 read-only load
 * that consistent hashing cannot, and NetCache loses most of its throughput at 10% writes.
 */
class PegasusBenchTest {
    private static final int KEYS = 100_000;

    private static PegasusExperiments experiments() {
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        return new PegasusExperiments(new RackRunner(root, 42), Testbed.pegasusPaper(), 3_000, 12_000, 5_000, 42, 1_000);
    }

    @Test
    void pegasusBalancesSkewThatConsistentHashingCannotAndNetCacheDropsWithWrites() {
        PegasusExperiments ex = experiments();
        var readOnly = PegasusWorkloads.zipf(1.2, 0, KEYS);
        Measured ch = ex.measure("nocache", readOnly, 8);
        Measured pg = ex.measure("pegasus", readOnly, 8);
        // the hottest key alone is ~19% of requests: consistent hashing's busiest server carries it, Pegasus
        // spreads it over its replicas
        assertTrue(PegasusBench.busiestShare(ch) > 0.19, "CH busiest share " + PegasusBench.busiestShare(ch));
        assertTrue(PegasusBench.busiestShare(pg) < 0.6 * PegasusBench.busiestShare(ch),
                "Pegasus busiest share " + PegasusBench.busiestShare(pg) + " vs CH " + PegasusBench.busiestShare(ch));
        assertTrue(pg.sloMops() > 1.5 * ch.sloMops(), "Pegasus " + pg.sloMops() + " vs CH " + ch.sloMops() + " MOPS");
        assertTrue(pg.saturationMops() > 1.5 * ch.saturationMops(), "saturation: Pegasus " + pg.saturationMops()
                + " vs CH " + ch.saturationMops());

        Measured ncRead = ex.measure("netcache", readOnly, 8);
        Measured ncWrites = ex.measure("netcache", PegasusWorkloads.zipf(1.2, 0.1, KEYS), 8);
        assertTrue(ncRead.sloMops() > pg.sloMops(), "read-only NetCache answers from the switch: " + ncRead.sloMops());
        assertTrue(ncWrites.sloMops() < 0.5 * ncRead.sloMops(),
                "NetCache at 10% writes " + ncWrites.sloMops() + " vs read-only " + ncRead.sloMops());
        // under the SLO, a throughput is below the saturation bound
        assertTrue(pg.sloMops() < pg.saturationMops() && ch.sloMops() < ch.saturationMops());
    }

    /**
     * §9.8 at small size: two racks of 4 servers (each the tail of about half of the keys) serve reads of a
     * zipf-1.2 load well above one rack of 4, and after one rack fails the survivor still serves, at about
     * one rack's rate.
     */
    @Test
    void twoRacksServeMoreReadsThanOneAndTheSurvivorServesAfterARackFails() {
        PegasusExperiments ex = experiments();
        var readOnly = PegasusWorkloads.zipf(1.2, 0, KEYS);
        Measured one = ex.measure("pegasus", readOnly, 4);
        Measured two = ex.measureChain(readOnly, 4, 0);
        Measured survivor = ex.measureChain(readOnly, 4, 2);
        assertTrue(two.sloMops() > 1.4 * one.sloMops(), "two racks " + two.sloMops() + " vs one " + one.sloMops());
        assertTrue(survivor.sloMops() < 0.75 * two.sloMops() && survivor.sloMops() > 0.6 * one.sloMops(),
                "after a rack failure " + survivor.sloMops() + " (two racks " + two.sloMops() + ", one " + one.sloMops() + ")");
    }

    /**
     * {@code --plot} on the quick skew experiment: Fig. 7's bars (a scheme per α, three α), and the paper's
     * two §9.1 ratios beside the model's at α = 1.2 only, where the paper states them.
     */
    @Test
    void plotDrawsTheSkewExperimentWithThePapersRatiosAtItsMostSkewedPoint(@TempDir Path dir) throws Exception {
        PegasusBench bench = new PegasusBench();
        bench.quick = true;
        bench.keys = KEYS;
        bench.experiments = List.of("skew");
        bench.plot = PlotOption.into(dir);
        bench.run(new PrintStream(OutputStream.nullOutputStream()), experiments());
        PlotHtml html = PlotHtml.read(dir);
        assertEquals(3, html.figures().size(), "throughput, Pegasus / CH, CH / uniform");
        assertEquals(3 * 3, PlotHtml.modelMarks(html.figures().get(0)), "a bar per scheme per α");
        String gain = html.figure("Pegasus / consistent hashing (x)");
        assertEquals(3, PlotHtml.modelMarks(gain));
        assertEquals(1, PlotHtml.count(gain, "<rect class=\"paper\""), "the paper states its ratio at α = 1.2 only");
        assertTrue(gain.contains("10.00 (§9.1"), gain);
        assertTrue(html.figure("its uniform throughput").contains("0.10 (§9.1"));
    }

    @Test
    void badOptionsAreRefusedBeforeAnythingRuns() {
        for (String[] args : new String[][] {{"--exp", "bogus"}, {"--ops", "0"}, {"--keys", "-1"}, {"--warmup", "x"},
            {"--plot", "README.md/figures"}}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = Cli.run("innet bench pegasus", new PegasusBench(), args,
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(2, code, String.join(" ", args) + ": " + err);
            assertTrue(out.toString(StandardCharsets.UTF_8).isEmpty(), "nothing ran: " + out);
        }
    }
}
