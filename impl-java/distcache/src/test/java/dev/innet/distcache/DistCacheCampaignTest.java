package dev.innet.distcache;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.check.RunVerdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * CI-sized DistCache campaigns on the leaf-spine network: lossy, duplicating, reordering links between
 * the switches and the servers, a small cache and a low hot threshold (insertions keep racing writes),
 * a spine (upper-layer cache switch) crash long enough for the controller to re-partition, and a leaf
 * (lower-layer cache switch) crash. Every history is checked by porcupine and the lost-write monitor;
 * the spec's refuted variants, seeded as server bugs, must be caught.
 */
class DistCacheCampaignTest {
    static Rack campaign(DistCacheProtocol protocol, long seed) {
        return campaign(CampaignSettings.ci().withRack(4, 4, 8), protocol, seed);
    }

    static Rack campaign(CampaignSettings settings, DistCacheProtocol protocol, long seed) {
        return campaign(settings, protocol, seed, null);
    }

    /** {@code program}: a seeded variant of p4/distcache.p4 (null: the program itself). */
    static Rack campaign(CampaignSettings settings, DistCacheProtocol protocol, long seed, java.nio.file.Path program) {
        Rack.Builder b = settings.rack(RackRuns.root(), protocol, seed).out(RackRuns.QUIET);
        if (program != null) {
            b.programSource(program);
        }
        Rack rack = b.build();
        rack.crashSwitch("spine1", 8_000_000, 11_000_000);
        rack.crashSwitch("leaf2", 16_000_000, 17_000_000);
        return rack;
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void faultsAndCacheSwitchCrashesStayLinearizable(long seed) throws Exception {
        Rack rack = campaign(new DistCacheProtocol(), seed);
        rack.run();
        var ctl = rack.controllerCounters();
        assertTrue(ctl.getOrDefault("insertions", 0L) > 0, "no insertions: " + ctl);
        assertTrue(ctl.getOrDefault("switchFailures", 0L) >= 2, "the crashes were not seen: " + ctl);
        assertTrue(ctl.getOrDefault("bucketsMoved", 0L) > 0, "no re-partition after the spine crash: " + ctl);
        assertTrue(ctl.getOrDefault("evictions", 0L) > 0, "no evictions: " + ctl);
        assertTrue(rack.stats().cacheHits > 0, "no cache hits");
        RackRuns.assertSafe(rack, "campaign-distcache-" + seed);
    }

    /** The same, and the controller crashes: its next incarnation clears the caches it does not know. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2})
    void aControllerRestartStaysLinearizable(long seed) throws Exception {
        Rack rack = campaign(new DistCacheProtocol(), seed);
        rack.crashHost(20_000_000, 21_000_000, dev.innet.protocol.RackPorts.CONTROLLER_HOST);
        rack.run();
        var ctl = rack.controllerCounters();
        assertTrue(ctl.getOrDefault("switchesProgrammed", 0L) >= 5, "the new controller programmed nothing: " + ctl);
        assertTrue(ctl.getOrDefault("insertions", 0L) > 0, "no insertions after the restart: " + ctl);
        RackRuns.assertSafe(rack, "campaign-distcache-controller-" + seed);
    }

    /**
     * A bug hunt: 8 keys, 6 clients, so that reads of one key through both layers and the server overlap
     * the windows the seeded bugs open. The protocol itself must pass it (else a "caught" bug means nothing).
     */
    static final CampaignSettings HUNT = CampaignSettings.ci().withRack(4, 6, 8)
            .withWorkload(new dev.innet.rack.workload.Workload(8, 0.9, 0.7, 0.05, 16, 0));

    /** Cache churn: 16 keys for 2 records per switch, so insertions race old updates still in flight. */
    static final CampaignSettings CHURN = CampaignSettings.ci().withRack(4, 6, 2)
            .withWorkload(new dev.innet.rack.workload.Workload(16, 0.9, 0.7, 0.05, 16, 0));

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2})
    void theBugHuntIsSafeForTheProtocol(long seed) throws Exception {
        Rack rack = campaign(HUNT, new DistCacheProtocol(), seed);
        rack.run();
        assertTrue(rack.stats().cacheHits > 0, "no cache hits");
        RackRuns.assertSafe(rack, "distcache-hunt-" + seed);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2})
    void cacheChurnIsSafeForTheProtocol(long seed) throws Exception {
        Rack rack = campaign(CHURN, new DistCacheProtocol(), seed);
        rack.run();
        assertTrue(rack.controllerCounters().getOrDefault("evictions", 0L) > 10, "no churn: " + rack.controllerCounters());
        RackRuns.assertSafe(rack, "distcache-churn-" + seed);
    }

    @Test
    void aSinglePhaseUpdateIsCaught() throws Exception {
        assertCaught("singlephase", SeededBugs.singlePhase());
    }

    @Test
    void revalidationBeforeTheServerAcknowledgesIsCaught() throws Exception {
        assertCaught("revalidate-early", SeededBugs.revalidateEarly());
    }

    @Test
    void aCopyWithoutTheVersionGuardIsCaught() throws Exception {
        assertCaught("noversionguard", new DistCacheProtocol(), SeededBugs.program("noversionguard",
                "&& hdr.innet.seq >= seen && hdr.dc.token == waiting", "&& hdr.dc.token == waiting"));
    }

    private static void assertCaught(String name, DistCacheProtocol buggy) throws Exception {
        assertCaught(name, buggy, null);
    }

    private static void assertCaught(String name, DistCacheProtocol buggy, java.nio.file.Path program) throws Exception {
        assertCaught(name, HUNT, buggy, program);
    }

    private static void assertCaught(String name, CampaignSettings settings, DistCacheProtocol buggy,
            java.nio.file.Path program) throws Exception {
        List<String> seen = new ArrayList<>();
        for (long seed = 1; seed <= 6; seed++) {
            Rack rack = campaign(settings, buggy, seed, program);
            rack.run();
            RunVerdict v = RackRuns.verdict(rack, "distcache-bug-" + name + "-" + seed);
            seen.add("seed " + seed + ": " + (v.violated() ? "caught" : v.safe() ? "safe" : "inconclusive"));
            if (v.violated()) {
                System.out.println("distcache bug " + name + " caught at seed " + seed + ": lost writes "
                        + v.lostWrites().size() + ", porcupine " + v.linearizability());
                return;
            }
        }
        throw new AssertionError("seeded bug " + name + " not caught: " + seen);
    }
}
