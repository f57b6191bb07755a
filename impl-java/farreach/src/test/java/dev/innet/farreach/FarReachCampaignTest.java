package dev.innet.farreach;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * FarReach campaigns at CI size: racks with loss, duplication and reordering between the switch and
 * the servers, and cache churn (a cache much smaller than the hot set, counters reset often, so
 * admissions and evictions race reads and writes). Every history must be linearizable per key and lose
 * no acknowledged write. Then each monitor is shown catching a seeded bug. Larger campaigns: ./innet sim.
 */
class FarReachCampaignTest {
    static Rack.Builder churn(FarReachProtocol protocol, long seed) {
        return CampaignSettings.ci().rack(RackRuns.root(), protocol, seed).out(RackRuns.QUIET);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void lossyLinksAndCacheChurnStayLinearizable(long seed) throws Exception {
        Rack rack = churn(new FarReachProtocol(), seed).build();
        rack.run();
        assertTrue(rack.controllerCounters().get("evictions") > 0, "no cache churn: " + rack.controllerCounters());
        RackRuns.assertSafe(rack, "campaign-farreach-" + seed);
    }

    /** Runs seeds until a monitor flags the run; returns the first such seed or fails. */
    private static long firstCaughtSeed(String name, LongFunction<Rack> rackForSeed, int maxSeeds) throws Exception {
        for (long seed = 1; seed <= maxSeeds; seed++) {
            Rack rack = rackForSeed.apply(seed);
            rack.run();
            if (RackRuns.verdict(rack, name + "-" + seed).violated()) {
                return seed;
            }
        }
        fail(name + ": no seed in 1.." + maxSeeds + " exposed the seeded bug; the monitors cannot see it");
        return -1;
    }

    @Test
    void monitorsCatchServersThatIgnoreSequenceNumbers() throws Exception {
        long seed = firstCaughtSeed("bug-ignore-seq",
                s -> churn(SeededBugs.serversIgnoringSequenceNumbers(new FarReachProtocol()), s).build(), 10);
        System.out.println("servers ignoring sequence numbers caught at seed " + seed);
    }

    @Test
    void monitorsCatchASwitchProgramWithoutRecordEmbedding() throws Exception {
        Path variant = buggyFarReachWithoutEmbedding();
        // The bug shows only when a read of a record being evicted overtakes a write forwarded to the
        // server (FR-8) whose predecessor the switch had absorbed: slow control steps keep records in the
        // to-be-evicted state longer, and heavier reordering lets reads overtake writes.
        long seed = firstCaughtSeed("bug-no-embedding", s -> embeddingStress(s).programSource(variant).build(), 20);
        System.out.println("farreach.p4 without record embedding caught at seed " + seed);
        // The control: the real program under the same stress and the same seeds up to the catching one
        // stays safe, so what the monitors saw is the seeded bug and not the stress itself.
        for (long s = 1; s <= seed; s++) {
            Rack rack = embeddingStress(s).build();
            rack.run();
            RackRuns.assertSafe(rack, "embedding-stress-real-" + s);
        }
    }

    private static Rack.Builder embeddingStress(long seed) {
        // Values of many lengths: a write too long to cache (FR-9) leaves the record outdated and to be
        // evicted, whose reads must embed it. Without them the bug needs a read of a record a forwarded
        // write (FR-8) made outdated, which became rare once fills (FR-11) made records latest sooner.
        CampaignSettings ci = CampaignSettings.ci();
        return ci.withWorkload(ci.workload().withValueLengths(CampaignSettings.SIM_MIN_VALUE_BYTES,
                        CampaignSettings.SIM_MAX_VALUE_BYTES)).withControlStepNanos(200_000)
                .withFaults(CampaignSettings.LOSSY.withReorder(0.3, 80_000))
                .rack(RackRuns.root(), new FarReachProtocol(), seed).out(RackRuns.QUIET);
    }
    /**
     * farreach.p4 with FR-5 changed: a read of an outdated record being evicted is forwarded as a plain
     * GET instead of carrying the switch's record (§3.3 record embedding removed). Written next to the
     * under target/; the rack compiles with p4/ on the include path, so its #includes resolve.
     */
    static Path buggyFarReachWithoutEmbedding() throws Exception {
        Path real = RackRuns.root().resolve(new FarReachProtocol().p4Program());
        String source = Files.readString(real);
        String embed = "hdr.innet.op = OP_GET_EMBED;";
        int at = source.indexOf(embed);
        if (at < 0 || source.indexOf(embed, at + 1) >= 0) {
            fail("farreach.p4 no longer has exactly one '" + embed + "'; update this seeded bug");
        }
        Path variant = Path.of("target", "bug-no-embedding.p4").toAbsolutePath();
        Files.createDirectories(variant.getParent());
        Files.writeString(variant, source.replace(embed, "hdr.innet.op = OP_GET; /* seeded bug: no record embedding */"));
        return variant;
    }
}
