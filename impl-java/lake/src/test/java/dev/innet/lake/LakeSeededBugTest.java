package dev.innet.lake;

import static org.junit.jupiter.api.Assertions.fail;

import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.workload.Workload;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The rack's checks can fail for LaKe: lake.p4 with the spec's {@code BugFillUnguarded} seeded (every
 * reply fills, whatever its tag and the slot's fence) is caught by porcupine under reordering, while
 * the real program under the same stress and seeds stays linearizable.
 */
public class LakeSeededBugTest {
    /**
     * Few keys, LaKe's 32-byte values, and deletes: a delete invalidates, so GETs miss and go to the host,
     * and a GET reply delayed past a newer SET's completion and a read of it can refill the older value.
     */
    static final Workload CONTENDED = new Workload(4, 0.5, 0.4, 0.2, 32, 0);
    static final int MAX_SEEDS = 20;

    @Test
    void porcupineCatchesFillsThatIgnoreTheFence() throws Exception {
        Path variant = unguardedFills();
        long caught = -1;
        for (long seed = 1; seed <= MAX_SEEDS && caught < 0; seed++) {
            Rack rack = stress(seed).programSource(variant).build();
            rack.run();
            if (RackRuns.verdict(rack, "lake-bug-fill-unguarded-" + seed).violated()) {
                caught = seed;
            }
        }
        if (caught < 0) {
            fail("no seed in 1.." + MAX_SEEDS + " exposed unguarded fills; the checks cannot see the bug");
        }
        System.out.println("lake.p4 with unguarded fills caught at seed " + caught);
        for (long seed = 1; seed <= Math.max(caught, 3); seed++) {
            Rack rack = stress(seed).build();
            rack.run();
            RackRuns.assertSafe(rack, "lake-stress-real-" + seed);
        }
    }

    private static Rack.Builder stress(long seed) {
        return CampaignSettings.ci().withWorkload(CONTENDED)
                .withFaults(CampaignSettings.LOSSY.withReorder(0.5, 150_000))
                .rack(RackRuns.root(), new LakeProtocol(), seed).out(RackRuns.QUIET);
    }

    /** lake.p4 whose two fill decisions ignore the fence (both layers), written under target/. */
    public static Path unguardedFills() throws Exception {
        String source = Files.readString(RackRuns.root().resolve(new LakeProtocol().p4Program()));
        String guard = "if (has_value && tag > fence)";
        int first = source.indexOf(guard);
        int second = first < 0 ? -1 : source.indexOf(guard, first + 1);
        if (first < 0 || second < 0 || source.indexOf(guard, second + 1) >= 0) {
            fail("lake.p4 no longer has exactly two '" + guard + "'; update this seeded bug");
        }
        Path variant = Path.of("target", "bug-fill-unguarded.p4").toAbsolutePath();
        Files.createDirectories(variant.getParent());
        Files.writeString(variant, source.replace(guard, "if (has_value) /* seeded bug: no fence */"));
        return variant;
    }
}
