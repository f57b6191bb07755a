package dev.innet.farreach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.monitor.SnapshotMonitor;
import dev.innet.protocol.Protocol;
import dev.innet.rack.CampaignSettings;
import dev.innet.rack.RackRuns;
import dev.innet.rack.campaign.Campaign;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness's campaign runner turns a run-added monitor's finding into an unsafe run and exit code 1. */
class CampaignRunnerTest {
    @TempDir
    Path histories;

    private List<Campaign.Outcome> campaign(UnaryOperator<FarReachProtocol> variant) throws Exception {
        Campaign.RunSetup setup = (protocol, seed) -> {
            SnapshotMonitor[] monitor = new SnapshotMonitor[1];
            Protocol run = variant.apply(((FarReachProtocol) protocol).withSnapshotPeriodNanos(3_000_000)
                    .withHooks(h -> monitor[0] = new SnapshotMonitor(h)));
            return new Campaign.PreparedRun(CampaignSettings.ci().rack(RackRuns.root(), run, seed).out(RackRuns.QUIET)
                    .build(), () -> monitor[0].violations());
        };
        return Campaign.run(RackRuns.root(), histories, List.of(new FarReachProtocol()), 1, 1, setup, o -> {});
    }

    @Test
    void aMonitorViolationMakesTheCampaignUnsafe() throws Exception {
        List<Campaign.Outcome> outcomes = campaign(SeededBugs::snapshotsWithoutFirstWriteOriginals);
        assertEquals(1, outcomes.size());
        assertTrue(outcomes.get(0).unsafe(), outcomes.get(0).result());
        assertEquals("MONITOR VIOLATION", outcomes.get(0).result());
        assertEquals(1, Campaign.exitCode(outcomes));
    }

    @Test
    void theRealProtocolPassesTheSameCampaign() throws Exception {
        List<Campaign.Outcome> outcomes = campaign(p -> p);
        assertFalse(outcomes.get(0).unsafe(), outcomes.get(0).verdict().describe() + outcomes.get(0).monitorViolations());
        assertEquals(0, Campaign.exitCode(outcomes));
    }
}
