package dev.innet.pegasus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.innet.pegasus.controller.PegasusController;
import dev.innet.pegasus.monitor.AtMostOnceMonitor;
import dev.innet.pegasus.server.ClientTable;
import dev.innet.pegasus.server.PegasusServer;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.UdpFrame;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The spec's AtMostOnce invariant as a runtime monitor ({@link AtMostOnceMonitor}): clean under the
 * bug-hunting stress (lossy links, retried writes, directory churn), and catching the spec's
 * MCPegasus_NoAMO and MCPegasus_NoTableCopy variants recreated as implementation bugs.
 */
class AtMostOnceTest {
    private static PegasusProtocol monitored(AtMostOnceMonitor monitor) {
        return new PegasusProtocol().withServers((rack, opener) -> new PegasusServer(rack, opener, monitor));
    }

    @Test
    void theMonitorNamesARequestExecutedTwice() {
        AtMostOnceMonitor m = new AtMostOnceMonitor();
        m.executed(1, 2, 3, 10);
        m.executed(1, 2, 3, 10); // a duplicate of the same stamped packet: the same execution
        m.executed(1, 2, 4, 11);
        assertTrue(m.violations().isEmpty());
        m.executed(1, 2, 3, 12);
        assertEquals(1, m.violations().size());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2})
    void noWriteIsExecutedTwiceUnderFaultsAndChurn(long seed) throws Exception {
        AtMostOnceMonitor monitor = new AtMostOnceMonitor();
        Rack rack = PegasusCampaignTest.stress(monitored(monitor), seed, 0.5).build();
        rack.run();
        assertTrue(monitor.requests() > 100, "too few writes monitored: " + monitor.requests());
        assertTrue(monitor.violations().isEmpty(), "double executions: " + monitor.violations());
        RackRuns.assertSafe(rack, "pegasus-amo-" + seed);
    }

    @Test
    void theMonitorCatchesDetectorsWithoutClientTables() throws Exception {
        AtMostOnceMonitor monitor = new AtMostOnceMonitor();
        PegasusProtocol buggy = new PegasusProtocol().withServers((rack, opener) -> new PegasusServer(rack, opener, monitor) {
            @Override
            protected Optional<ClientTable.Entry> recordedRequest(UdpFrame f, InnetMessage m) {
                return Optional.empty(); // MCPegasus_NoAMO
            }
        });
        Rack rack = PegasusCampaignTest.stress(buggy, 1, 0.5).build();
        rack.run();
        assertFalse(monitor.violations().isEmpty(), "a retried write executed twice went unnoticed");
        System.out.println("MCPegasus_NoAMO: " + monitor.violations().size() + " requests executed twice");
    }

    @Test
    void theMonitorCatchesTransitionsWithoutTableMigration() throws Exception {
        for (long seed = 1; seed <= 20; seed++) {
            AtMostOnceMonitor monitor = new AtMostOnceMonitor();
            PegasusProtocol buggy = monitored(monitor).withControllers((config, handle) -> new PegasusController(config, handle) {
                @Override
                protected boolean migratesClientTables() {
                    return false; // MCPegasus_NoTableCopy
                }
            });
            Rack rack = PegasusCampaignTest.stress(buggy, seed, 0.5).build();
            rack.run();
            if (!monitor.violations().isEmpty()) {
                System.out.println("MCPegasus_NoTableCopy caught at seed " + seed + ": " + monitor.violations());
                return;
            }
        }
        fail("no seed in 1..20 exposed transitions without client-table migration");
    }
}
