package dev.innet.costmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Background classes (work no client waits for) load a station like any other arrival and are left out of
 * the reported latencies: checked against the M/M/1 closed form, where every operation, foreground or
 * background, waits in the same FIFO queue.
 */
class BackgroundClassTest {
    @Test
    void backgroundWorkLengthensForegroundSojournsAndIsNotReported() {
        // One exponential server at 1 s per visit; half the arrivals are background. At 0.6 arrivals/s the
        // M/M/1 sojourn of every arrival is 1 / (1 - 0.6) = 2.5 s. A foreground-only queue offered the
        // foreground's 0.3/s would give 1 / (1 - 0.3) = 1.43 s instead.
        Station server = Station.fifo("server", Station.Service.EXPONENTIAL);
        Visit visit = new Visit(0, 1.0);
        var net = new QueueingNetwork(List.of(server), List.of(new OperationClass("client", 0.5, List.of(visit)),
                new OperationClass("replica copy", 0.5, List.of(visit), true)));
        assertEquals(0.5, net.foregroundShare(), 1e-12);
        LatencyReport r = new DiscreteEventSimulator(net).run(0.6, 30_000, 300_000, 7);
        assertEquals(2.5, r.mean(), 0.1);
        // Only foreground arrivals are reported: their rate is half the offered one.
        assertEquals(0.3, r.achievedOpsPerSecond(), 0.01);
    }

    @Test
    void aNetworkOfBackgroundWorkAloneHasNothingToReport() {
        var net = new QueueingNetwork(List.of(Station.fifo("server", Station.Service.EXPONENTIAL)),
                List.of(new OperationClass("copy", 1, List.of(new Visit(0, 1.0)), true)));
        assertThrows(IllegalArgumentException.class, () -> new DiscreteEventSimulator(net).run(0.5, 10, 100, 1));
    }
}
