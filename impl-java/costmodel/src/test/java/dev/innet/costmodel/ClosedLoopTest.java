package dev.innet.costmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The closed-loop runs against exact mean value analysis (Reiser and Lavenberg) of the machine-repairman
 * model, and the work an operation leaves behind after its reply: it loads the station but is not latency.
 */
class ClosedLoopTest {
    /** One exponential server (mean {@code s}) and a think delay {@code z} between a reply and the next request. */
    private static QueueingNetwork repairman(double s, double z) {
        return new QueueingNetwork(List.of(Station.fifo("server", Station.Service.EXPONENTIAL), Station.delay("think")),
                List.of(new OperationClass("op", 1, List.of(new Visit(1, z), new Visit(0, s)))));
    }

    /** Mean value analysis: throughput of {@code n} customers cycling through the server and the delay. */
    private static double mvaThroughput(int n, double s, double z) {
        double queue = 0;
        double x = 0;
        for (int k = 1; k <= n; k++) {
            double r = s * (1 + queue);
            x = k / (r + z);
            queue = x * r;
        }
        return x;
    }

    @Test
    void throughputMatchesMeanValueAnalysis() {
        for (int n : new int[] {1, 3, 5, 12}) {
            ClosedLoopReport r = new DiscreteEventSimulator(repairman(1.0, 4.0)).runClosed(n, 20_000, 200_000, n);
            double expected = mvaThroughput(n, 1.0, 4.0);
            assertEquals(expected, r.achievedOpsPerSecond(), 0.02 * expected, "throughput with " + n + " customers");
            // Little's law over the whole cycle: n = X (R + Z), with R the latency each operation saw
            assertEquals(n, r.achievedOpsPerSecond() * r.latency().mean(), 0.03 * n, "Little's law with " + n);
        }
    }

    @Test
    void workLeftAfterTheReplyLoadsTheStationButIsNotLatency() {
        var net = new QueueingNetwork(List.of(Station.fifo("metadata", Station.Service.DETERMINISTIC), Station.delay("rpc")),
                List.of(new OperationClass("write", 1, List.of(new Visit(1, 1.0), new Visit(0, 0.5)), 1)));
        ClosedLoopReport r = new DiscreteEventSimulator(net).runClosed(1, 100, 1_000, 7);
        assertEquals(1.0, r.latency().p50(), 1e-9);
        assertEquals(1.0, r.latency().max(), 1e-9);
        assertEquals(1.0, r.achievedOpsPerSecond(), 0.002);
        assertEquals(0.5, r.stationUtilisation()[0], 0.01);
    }

    @Test
    void latencyOfSelectedClassesOnly() {
        var net = new QueueingNetwork(List.of(Station.delay("wire")), List.of(
                new OperationClass("write fast", 0.5, List.of(new Visit(0, 1.0))),
                new OperationClass("read slow", 0.5, List.of(new Visit(0, 3.0)))));
        ClosedLoopReport r = new DiscreteEventSimulator(net).runClosed(4, 100, 10_000, 3);
        assertEquals(1.0, r.latencyOf(name -> name.startsWith("write")).max(), 1e-9);
        assertEquals(3.0, r.latencyOf(name -> name.startsWith("read")).p50(), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> r.latencyOf(name -> name.startsWith("scan")));
    }

    @Test
    void leftBehindWorkWaitsBehindWaitingClients() {
        // One deterministic server shared by a critical visit (0.1 s) and, after the reply, background work
        // (0.5 s): four clients. With the background served first-come, a critical visit can wait behind up
        // to three background jobs; deferred, it waits at most for the one in service (0.5 s).
        var net = new QueueingNetwork(List.of(Station.fifo("metadata", Station.Service.DETERMINISTIC), Station.delay("rpc")),
                List.of(new OperationClass("write", 1, List.of(new Visit(1, 1.0), new Visit(0, 0.1), new Visit(0, 0.5)), 2)));
        ClosedLoopReport r = new DiscreteEventSimulator(net).runClosed(4, 1_000, 5_000, 11);
        assertTrue(r.latency().max() <= 1.0 + 0.1 + 0.5 + 0.1 * 3 + 1e-9, "max " + r.latency().max());
        // the server is the bottleneck (0.6 s of work per operation), so throughput is 1 / 0.6 per second
        assertEquals(1 / 0.6, r.achievedOpsPerSecond(), 0.02 / 0.6);
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new OperationClass("x", 1, List.of(new Visit(0, 1.0)), 2));
        assertThrows(IllegalArgumentException.class,
                () -> new DiscreteEventSimulator(repairman(1, 1)).runClosed(0, 0, 10, 1));
    }
}
