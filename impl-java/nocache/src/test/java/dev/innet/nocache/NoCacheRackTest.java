package dev.innet.nocache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** No-cache racks on p4sim: the switch never answers, and histories stay linearizable under faults. */
class NoCacheRackTest {
    @Test
    void nocacheNeverAnswersFromTheSwitch() throws Exception {
        Rack rack = Rack.builder(RackRuns.root(), 3).protocol(new NoCacheProtocol()).out(RackRuns.QUIET).build();
        rack.run();
        assertEquals(0, rack.stats().cacheHits);
        RackRuns.assertSafe(rack, "nocache-clean");
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void lossyLinksStayLinearizable(long seed) throws Exception {
        Rack rack = CampaignSettings.ci().rack(RackRuns.root(), new NoCacheProtocol(), seed).out(RackRuns.QUIET).build();
        rack.run();
        assertEquals(0, rack.stats().cacheHits);
        RackRuns.assertSafe(rack, "campaign-nocache-" + seed);
    }
}
