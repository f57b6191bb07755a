package dev.innet.costmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The simulator's queueing against textbook closed forms (Kleinrock, Queueing Systems vol. 1): if the
 * event handling, FIFO order, service sampling or arrival process were wrong, the means would move.
 * Tolerances are ~4x the standard error of 300,000 measured operations at these loads.
 */
class QueueingClosedFormTest {
    private static final int WARMUP = 20_000;
    private static final int MEASURED = 300_000;

    private static QueueingNetwork single(Station s, double serviceSeconds) {
        return new QueueingNetwork(List.of(s), List.of(new OperationClass("op", 1, List.of(new Visit(0, serviceSeconds)))));
    }

    @Test
    void mm1MeanSojournAndP99() {
        // M/M/1, lambda 0.7, mu 1: W = 1/(mu - lambda); the sojourn time is exponential(mu - lambda).
        var net = single(Station.fifo("server", Station.Service.EXPONENTIAL), 1.0);
        LatencyReport r = new DiscreteEventSimulator(net).run(0.7, WARMUP, MEASURED, 1);
        assertEquals(1 / 0.3, r.mean(), 0.06 / 0.3 * 1.0);
        assertEquals(Math.log(100) / 0.3, r.p99(), 0.06 * Math.log(100) / 0.3);
        assertEquals(0.7, r.stationUtilisation()[0], 0.01);
    }

    @Test
    void md1MeanWaitIsPollaczekKhinchine() {
        // M/D/1, rho 0.7, D 1: Wq = rho D / (2 (1 - rho)), half the M/M/1 wait.
        var net = single(Station.fifo("pipeline", Station.Service.DETERMINISTIC), 1.0);
        LatencyReport r = new DiscreteEventSimulator(net).run(0.7, WARMUP, MEASURED, 2);
        double wq = 0.7 / (2 * 0.3);
        assertEquals(wq + 1, r.mean(), 0.04 * (wq + 1));
    }

    @Test
    void mm2MeanWaitIsErlangC() {
        // M/M/2, lambda 1.4, mu 1 per server: a = 1.4; C(2, a) = (a^2/2 * 2/(2-a)) / (1 + a + a^2/2 * 2/(2-a)).
        double a = 1.4;
        double top = a * a / 2 * 2 / (2 - a);
        double c = top / (1 + a + top);
        double w = c / (2 - a) + 1;
        var net = single(new Station("server pair", 2, Station.Service.EXPONENTIAL), 1.0);
        LatencyReport r = new DiscreteEventSimulator(net).run(1.4, WARMUP, MEASURED, 3);
        assertEquals(w, r.mean(), 0.04 * w);
    }

    @Test
    void tandemOfMm1QueuesAddsUpAsJacksonSays() {
        // Two exponential stations in series, lambda 1, mu 2 and 1.25: W = 1/(2-1) + 1/(1.25-1) = 5.
        var net = new QueueingNetwork(List.of(Station.fifo("a", Station.Service.EXPONENTIAL),
                Station.fifo("b", Station.Service.EXPONENTIAL), Station.delay("wire")),
                List.of(new OperationClass("op", 1, List.of(new Visit(0, 0.5), new Visit(2, 0.25), new Visit(1, 0.8)))));
        LatencyReport r = new DiscreteEventSimulator(net).run(1.0, WARMUP, MEASURED, 4);
        assertEquals(5.25, r.mean(), 0.05 * 5.25);
    }

    @Test
    void saturationIsTheUtilisationLawsBound() {
        // Class x (60%) costs 2 ms at s0; class y (40%) 1 ms at s0 and 5 ms at s1: D0 = 1.6 ms, D1 = 2 ms.
        var net = new QueueingNetwork(List.of(Station.fifo("s0", Station.Service.DETERMINISTIC),
                Station.fifo("s1", Station.Service.DETERMINISTIC)),
                List.of(new OperationClass("x", 0.6, List.of(new Visit(0, 0.002))),
                        new OperationClass("y", 0.4, List.of(new Visit(0, 0.001), new Visit(1, 0.005)))));
        Saturation s = Saturation.of(net);
        assertEquals(500, s.opsPerSecond(), 1e-9);
        assertEquals("s1", s.bottleneck());
        // Offered twice the bound, the simulation completes no more than the bound.
        LatencyReport over = new DiscreteEventSimulator(net).run(1000, 1_000, 20_000, 5);
        assertEquals(500, over.achievedOpsPerSecond(), 25);
    }

    @Test
    void sloSearchFindsTheMm1LoadWhoseP99MeetsTheBound() {
        // M/M/1 with mu 1: p99 = ln(100) / (mu - lambda) <= 20 s  <=>  lambda <= 1 - ln(100)/20 = 0.7697.
        var net = single(Station.fifo("server", Station.Service.EXPONENTIAL), 1.0);
        SloSearch.Result r = SloSearch.maxThroughput(net, 0.99, 20, 20_000, 200_000, 6, 0.005);
        assertEquals(1 - Math.log(100) / 20, r.opsPerSecond(), 0.025);
        assertTrue(r.report().p99() <= 20);
    }

    @Test
    void sameSeedSameReport() {
        var net = single(Station.fifo("server", Station.Service.EXPONENTIAL), 1.0);
        var des = new DiscreteEventSimulator(net);
        LatencyReport a = des.run(0.5, 100, 5_000, 9);
        LatencyReport b = des.run(0.5, 100, 5_000, 9);
        LatencyReport other = des.run(0.5, 100, 5_000, 10);
        assertEquals(a.mean(), b.mean());
        assertEquals(a.p99(), b.p99());
        assertTrue(a.mean() != other.mean(), "another seed draws other arrivals");
    }

    @Test
    void badNetworksAreRefusedWithTheReason() {
        var s = List.of(Station.fifo("s", Station.Service.DETERMINISTIC));
        var e1 = assertThrows(IllegalArgumentException.class,
                () -> new QueueingNetwork(s, List.of(new OperationClass("x", 0.5, List.of(new Visit(0, 1))))));
        assertTrue(e1.getMessage().contains("sum to 0.5"), e1.getMessage());
        var e2 = assertThrows(IllegalArgumentException.class,
                () -> new QueueingNetwork(s, List.of(new OperationClass("x", 1, List.of(new Visit(3, 1))))));
        assertTrue(e2.getMessage().contains("unknown station 3"), e2.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Visit(0, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> Saturation.of(new QueueingNetwork(s,
                List.of(new OperationClass("free", 1, List.of(new Visit(0, 0)))))));
    }
}
