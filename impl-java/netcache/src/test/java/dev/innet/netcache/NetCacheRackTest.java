package dev.innet.netcache;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** NetCache racks on p4sim: clean links, then CI-sized campaigns with lossy links and cache churn. */
class NetCacheRackTest {
    @Test
    void netcacheServesReadsFromTheSwitchAndStaysLinearizable() throws Exception {
        Rack rack = Rack.builder(RackRuns.root(), 2).protocol(new NetCacheProtocol()).out(RackRuns.QUIET).build();
        rack.run();
        assertTrue(rack.controllerCounters().get("admissions") > 0, "no admissions: " + rack.controllerCounters());
        assertTrue(rack.stats().cacheHits > 0, "no cache hits");
        RackRuns.assertSafe(rack, "netcache-clean");
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void lossyLinksAndCacheChurnStayLinearizable(long seed) throws Exception {
        Rack rack = CampaignSettings.ci().rack(RackRuns.root(), new NetCacheProtocol(), seed).out(RackRuns.QUIET).build();
        rack.run();
        assertTrue(rack.controllerCounters().get("evictions") > 0, "no cache churn: " + rack.controllerCounters());
        RackRuns.assertSafe(rack, "campaign-netcache-" + seed);
    }

    /**
     * A switch restart loses every register, the sequence counters included. Writes after it must still
     * be numbered above everything the servers hold, or servers keep older records and acknowledged
     * writes are lost (found by specs/netcache: MCNetCacheRestartReads).
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void aSwitchRestartLosesNoAcknowledgedWrite(long seed) throws Exception {
        Rack rack = CampaignSettings.ci().rack(RackRuns.root(), new NetCacheProtocol(), seed).out(RackRuns.QUIET).build();
        rack.crashSwitch(12_000_000, 12_200_000);
        rack.run();
        RackRuns.assertSafe(rack, "netcache-switch-restart-" + seed);
    }
}
