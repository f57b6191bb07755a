package dev.innet.kv.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.innet.protocol.RackSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class CacheControllerConfigTest {
    private static RackSpec rack(long clientTimeoutNanos) {
        return new RackSpec(List.of(1, 2), List.of(3), 254, 16, 0, 1_000_000_000L, 1_000_000L, List.of(),
                clientTimeoutNanos, false);
    }

    @Test
    void silentClientsAreReportedNoSoonerThanTheRacksClientTimeout() {
        // a live rack (timeouts of 200 ms): a client is not called silent after 5 ms
        assertEquals(200_000_000L, CacheControllerConfig.of(rack(200_000_000L)).clientSilenceReportNanos());
        // the simulator's racks (500 us): the 5 ms floor
        assertEquals(CacheControllerConfig.MIN_CLIENT_SILENCE_REPORT_NANOS,
                CacheControllerConfig.of(rack(500_000L)).clientSilenceReportNanos());
    }

    @Test
    void aReportPeriodOfZeroIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new CacheControllerConfig(List.of(1), List.of(1), List.of(),
                1, 1, 1, 1, 1, 1, 0, List.of(), 0));
    }
}
