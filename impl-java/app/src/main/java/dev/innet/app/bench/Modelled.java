package dev.innet.app.bench;

import dev.innet.costmodel.QueueingNetwork;
import dev.innet.costmodel.Saturation;

/**
 * One protocol on one workload and rack size, through the cost model: the saturation throughput in the
 * paper's operations per second, the station that limits it, and the run it came from.
 */
public record Modelled(RunObservation run, QueueingNetwork network, Saturation saturation, double opsPerSecond) {
    public static Modelled of(RunObservation run, BenchWorkload w, Testbed t) {
        QueueingNetwork net = RackCostModel.of(run, t);
        Saturation s = Saturation.of(net);
        return new Modelled(run, net, s, s.opsPerSecond() / w.rackOpsPerOperation());
    }

    public double mops() {
        return opsPerSecond / 1e6;
    }
}
