package dev.innet.app.bench.lake;

import dev.innet.costmodel.DiscreteEventSimulator;
import dev.innet.costmodel.LatencyReport;
import dev.innet.costmodel.OperationClass;
import dev.innet.costmodel.QueueingNetwork;
import dev.innet.costmodel.Saturation;
import dev.innet.costmodel.Station;
import dev.innet.costmodel.Visit;
import java.util.ArrayList;
import java.util.List;

/**
 * LaKe on its NetFPGA-SUME as a queueing network (docs/benchmarks.md, "LaKe"), every constant from the
 * paper (Tokusashi et al., ReConFig 2018, §IV-V): a GET answered by the first layer (the BRAM shared
 * cache) costs the pipeline of five processing elements, 13.1 Mqps in all, and 1.16 µs; one answered by
 * the second layer (DRAM) also occupies the DRAM, 6.3 Mqps when every GET goes there, and takes 5.6 µs;
 * a GET that misses both goes to the host's memcached, 13.6x slower than the first layer (0.963 Mqps),
 * with a host round trip 205x the hit latency (238 µs). The model is calibrated on those figures, so its
 * all-hit and all-memcached rows reproduce them by construction; what it predicts is a mix of layers
 * (the hit ratios a run measured), which the paper reports only as figures.
 */
public final class LakeModel {
    public static final double L1_QPS = 13.1e6;
    public static final double L1_LATENCY_S = dev.innet.lake.PaperLatency.L1_HIT_NANOS * 1e-9;
    public static final double DRAM_QPS = 6.3e6;
    public static final double L2_LATENCY_S = dev.innet.lake.PaperLatency.L2_HIT_NANOS * 1e-9;
    public static final double MEMCACHED_QPS = L1_QPS / 13.6;
    public static final double MEMCACHED_LATENCY_S = dev.innet.lake.PaperLatency.MEMCACHED_NANOS * 1e-9;
    /** The paper's five processing elements share the hits; each PE is a server of the pipeline station. */
    static final int PES = 5;

    private static final int PIPELINE = 0;
    private static final int DRAM = 1;
    private static final int HOST = 2;
    private static final int WIRE = 3;

    /** A mix of GETs: the share answered by each layer, the rest by memcached. */
    public record Mix(String name, double l1, double l2) {
        public Mix {
            if (l1 < 0 || l2 < 0 || l1 + l2 > 1 + 1e-9) {
                throw new IllegalArgumentException("hit ratios " + l1 + " + " + l2 + " must be shares of 1");
            }
        }

        double miss() {
            return Math.max(0, 1 - l1 - l2);
        }
    }

    /** What the model says of one mix: saturation, zero-load mean latency, latency at a given load. */
    public record Figures(Mix mix, double saturationQps, String bottleneck, double zeroLoadMeanS, LatencyReport atLoad) {}

    private LakeModel() {}

    /** The network for {@code mix}; {@code withLake} false is memcached alone (every GET to the host). */
    static QueueingNetwork network(Mix mix, boolean withLake) {
        List<Station> stations = List.of(new Station("LaKe pipeline (5 PEs)", PES, Station.Service.DETERMINISTIC),
                Station.fifo("DRAM", Station.Service.DETERMINISTIC), Station.fifo("host memcached", Station.Service.EXPONENTIAL),
                Station.delay("wire and host stack"));
        double pe = PES / L1_QPS;
        double dram = 1 / DRAM_QPS;
        double host = 1 / MEMCACHED_QPS;
        List<OperationClass> classes = new ArrayList<>();
        if (!withLake) {
            classes.add(new OperationClass("memcached", 1, List.of(new Visit(HOST, host),
                    new Visit(WIRE, MEMCACHED_LATENCY_S - host))));
            return new QueueingNetwork(stations, classes);
        }
        if (mix.l1() > 0) {
            classes.add(new OperationClass("L1 hit", mix.l1(), List.of(new Visit(PIPELINE, pe), new Visit(WIRE, L1_LATENCY_S - pe))));
        }
        if (mix.l2() > 0) {
            classes.add(new OperationClass("L2 hit", mix.l2(), List.of(new Visit(PIPELINE, pe), new Visit(DRAM, dram),
                    new Visit(WIRE, L2_LATENCY_S - pe - dram))));
        }
        if (mix.miss() > 1e-12) {
            // a miss is looked up in both layers (the DRAM's penalty, §IV-B) and then served by memcached
            classes.add(new OperationClass("miss", mix.miss(), List.of(new Visit(PIPELINE, pe), new Visit(DRAM, dram),
                    new Visit(HOST, host), new Visit(WIRE, MEMCACHED_LATENCY_S + L2_LATENCY_S - pe - dram - host))));
        }
        return new QueueingNetwork(stations, classes);
    }

    /** The model's figures for {@code mix}, with latencies simulated at {@code loadFraction} of saturation. */
    public static Figures figures(Mix mix, boolean withLake, double loadFraction, long seed) {
        QueueingNetwork net = network(mix, withLake);
        Saturation sat = Saturation.of(net);
        LatencyReport at = new DiscreteEventSimulator(net).run(sat.opsPerSecond() * loadFraction, 20_000, 100_000, seed);
        return new Figures(mix, sat.opsPerSecond(), sat.bottleneck(), net.meanServiceSeconds(), at);
    }
}
