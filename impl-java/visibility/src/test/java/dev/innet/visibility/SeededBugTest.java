package dev.innet.visibility;

import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Buggy variants of specs/visibility/MANIFEST, seeded into the implementation, are caught by the
 * harness's checks (porcupine per key, lost acknowledged writes) in a campaign like the clean ones of
 * VisibilityCampaignTest, which pass. The other three (MaxTsInstallOnly, ResyncNoMaxTs, Restamp) need
 * schedules these campaigns did not produce in 5 seeds each (a reply late across a whole switch crash,
 * a request duplicated across another write): SpecCounterexampleTest replays TLC's counterexamples.
 */
class SeededBugTest {
    static Rack.Builder campaign(VisibilityProtocol protocol, long seed) {
        return CampaignSettings.ci().withRack(3, 4, 8).rack(RackRuns.root(), protocol, seed).out(RackRuns.QUIET);
    }

    static VisibilityProtocol colliding() {
        return new VisibilityProtocol().withHasher(VisibilityCampaignTest.COLLIDING);
    }

    static Rack withProgram(Path program, long seed) {
        return campaign(colliding(), seed).programSource(program).build();
    }

    @Test
    void overwriteIsCaught() throws Exception {
        Path p = SeededBugs.overwrite();
        SeededBugs.caughtInSomeSeed("overwrite", 5, seed -> withProgram(p, seed));
    }

    @Test
    void clearAnyIsCaught() throws Exception {
        Path p = SeededBugs.clearAny();
        SeededBugs.caughtInSomeSeed("clear-any", 5, seed -> withProgram(p, seed));
    }

    @Test
    void noBlockIsCaught() throws Exception {
        Path p = SeededBugs.noBlock();
        SeededBugs.caughtInSomeSeed("no-block", 5, seed -> withProgram(p, seed));
    }

    @Test
    void noValidateIsCaught() throws Exception {
        SeededBugs.caughtInSomeSeed("no-validate", 5,
                seed -> campaign(colliding().withDataNodes(SeededBugs.NoValidateDataNode::new), seed).build());
    }
}
