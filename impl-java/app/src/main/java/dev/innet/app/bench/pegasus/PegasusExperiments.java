package dev.innet.app.bench.pegasus;

import dev.innet.app.bench.BenchWorkload;
import dev.innet.app.bench.Modelled;
import dev.innet.app.bench.RackCostModel;
import dev.innet.app.bench.RackRunner;
import dev.innet.app.bench.RunObservation;
import dev.innet.app.bench.Testbed;
import dev.innet.costmodel.QueueingNetwork;
import dev.innet.costmodel.Saturation;
import dev.innet.costmodel.SloSearch;
import dev.innet.pegasus.PegasusProtocol;
import dev.innet.pegasus.PegasusRack;
import dev.innet.pegasus.chain.ChainNetwork;
import dev.innet.pegasus.chain.PegasusChainProtocol;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.ProtocolRegistry;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Pegasus paper's experiments (§9) on simulated racks, priced by the cost model: each measurement runs
 * one scheme's rack (its real P4 program, servers, controller, clients) and turns what it did into the
 * queueing network of the paper's testbed, whose saturation throughput and throughput under the p99 SLO
 * are reported. Runs are memoised by (scheme, workload, servers, directory slots).
 */
public final class PegasusExperiments {
    /** Consistent hashing (innet's no-cache rack: every key on its ring owner), NetCache, Pegasus. */
    public static final List<String> SCHEMES = List.of("nocache", "netcache", "pegasus");
    /** §9.1-9.2: "99% latency SLO of 50 μs". */
    public static final double SLO_P99_SECONDS = 50e-6;
    /** §9: "NetCache reserves space for up to 10,000 128-byte values". */
    public static final int NETCACHE_ENTRIES = 10_000;
    /** §4.5: O(n log n) replicated keys; 64 = 16 log2 16 for the paper's 16 servers. */
    public static final int DEFAULT_DIRECTORY_SLOTS = 64;
    /**
     * The Pegasus controller's statistics period here (counters reset, replication factors and virtual
     * writes). The paper does not state its own; 1 ms lets the directory settle within the warm-up.
     */
    public static final long PEGASUS_PERIOD_NANOS = 1_000_000;
    /**
     * Pegasus's drain before a key transition (a bounded wait for in-flight writes). The bench's links are
     * clean and deliver within a few microseconds, so 50 us is still a bound (PegasusRack's default, 500 us,
     * covers campaigns' delayed links).
     */
    public static final long PEGASUS_DRAIN_NANOS = 50_000;

    /** Received op codes a Pegasus server pays storage time for: requests plus replicated and virtual writes. */
    static final Set<Integer> PEGASUS_STORAGE_OPS;

    static {
        Set<Integer> ops = new HashSet<>(RackCostModel.STORAGE_OPS);
        ops.addAll(List.of(PegasusOp.READ, PegasusOp.WRITE, PegasusOp.DELETE, PegasusOp.REPLICATE, PegasusOp.VIRTUAL_WRITE));
        PEGASUS_STORAGE_OPS = Set.copyOf(ops);
    }

    /** One scheme on one workload and rack: the model's figures and the run they came from. */
    public record Measured(String scheme, Modelled modelled, SloSearch.Result underSlo) {
        public double sloMops() {
            return underSlo.opsPerSecond() / 1e6;
        }

        public double saturationMops() {
            return modelled.mops();
        }

        public RunObservation run() {
            return modelled.run();
        }
    }

    private final RackRunner runner;
    private final Testbed testbed;
    private final long ops;
    private final long pegasusWarmOps;
    private final int sloOps;
    private final long seed;
    private final int netCacheEntries;
    private final Map<String, Measured> done = new LinkedHashMap<>();

    /**
     * @param ops measured operations per rack run
     * @param pegasusWarmOps operations a Pegasus rack runs before measuring, while its controller fills the
     *        directory from the switch's hot-key reports
     * @param sloOps operations the latency simulation measures per probe of the SLO search
     */
    public PegasusExperiments(RackRunner runner, Testbed testbed, long ops, long pegasusWarmOps, int sloOps, long seed) {
        this(runner, testbed, ops, pegasusWarmOps, sloOps, seed, NETCACHE_ENTRIES);
    }

    /** @param netCacheEntries NetCache's cache (the paper's 10,000; tests use fewer for a shorter load phase) */
    public PegasusExperiments(RackRunner runner, Testbed testbed, long ops, long pegasusWarmOps, int sloOps, long seed,
            int netCacheEntries) {
        this.runner = runner;
        this.testbed = testbed;
        this.ops = ops;
        this.pegasusWarmOps = pegasusWarmOps;
        this.sloOps = sloOps;
        this.seed = seed;
        this.netCacheEntries = netCacheEntries;
    }

    public Testbed testbed() {
        return testbed;
    }

    public Measured measure(String scheme, BenchWorkload w, int servers) {
        return measure(scheme, w, servers, DEFAULT_DIRECTORY_SLOTS);
    }

    /** @param slots Pegasus's directory size (replicated keys at most); ignored by the other schemes */
    public Measured measure(String scheme, BenchWorkload w, int servers, int slots) {
        String key = scheme + "|" + w.name() + "|" + servers + "|" + (scheme.equals("pegasus") ? slots : 0);
        return done.computeIfAbsent(key, k -> priced(scheme, switch (scheme) {
            case "pegasus" -> runner.run(pegasus(), w, servers, slots, ops, RackRunner.CLIENTS, pegasusWarmOps,
                    b -> b.counterResetNanos(PEGASUS_PERIOD_NANOS));
            case "netcache" -> runner.run(ProtocolRegistry.byName("netcache"), w, servers, netCacheEntries, ops);
            case "nocache" -> runner.run(ProtocolRegistry.byName("nocache"), w, servers, 1, ops);
            default -> throw new IllegalArgumentException("unknown scheme " + scheme + " (" + SCHEMES + ")");
        }));
    }

    /**
     * §9.8: Pegasus on two racks of {@code serversPerRack} servers each, every rack the head of about half
     * of the keys' chains and the tail of the others (innet's chain replication, docs/pegasus.md "Across
     * racks"). With {@code failedRack} > 0 that rack's switch dies as the run starts; the configuration
     * service removes it during the warm-up and the survivor serves every key.
     */
    public Measured measureChain(BenchWorkload w, int serversPerRack, int failedRack) {
        String key = "pegasus-chain|" + w.name() + "|" + serversPerRack + "|" + failedRack;
        return done.computeIfAbsent(key, k -> priced("pegasus-chain", runner.run(chain(), w, 2 * serversPerRack,
                DEFAULT_DIRECTORY_SLOTS, ops, RackRunner.CLIENTS, pegasusWarmOps,
                b -> b.counterResetNanos(PEGASUS_PERIOD_NANOS), rack -> {
                    if (failedRack > 0) {
                        rack.crashSwitch(ChainNetwork.rackSwitch(failedRack), 1_000, Long.MAX_VALUE / 16);
                    }
                })));
    }

    /**
     * Replicated writes, virtual writes and table migrations load a server but no client waits for them:
     * they queue at the server as background work (RackCostModel), so a network's arrivals are client
     * operations plus that work, and throughputs are scaled back to client operations.
     */
    private Measured priced(String scheme, RunObservation run) {
        QueueingNetwork net = RackCostModel.of(run, testbed,
                scheme.startsWith("pegasus") ? PEGASUS_STORAGE_OPS : RackCostModel.STORAGE_OPS, true);
        double clientShare = net.foregroundShare();
        Saturation sat = Saturation.of(net);
        Modelled m = new Modelled(run, net, sat, sat.opsPerSecond() * clientShare);
        SloSearch.Result found = SloSearch.maxThroughput(net, 0.99, SLO_P99_SECONDS, sloOps / 10, sloOps, seed, 0.01);
        return new Measured(scheme, m, new SloSearch.Result(found.opsPerSecond() * clientShare, found.report(),
                found.probes()));
    }

    private static Protocol chain() {
        return new PegasusChainProtocol(2).withRack(r -> new PegasusRack(r.servers(), r.controllerHost(),
                r.clientTimeoutNanos(), r.clientAttempts(), r.directorySlots(), PEGASUS_DRAIN_NANOS));
    }

    private static Protocol pegasus() {
        return new PegasusProtocol().withRack(r -> new PegasusRack(r.servers(), r.controllerHost(), r.clientTimeoutNanos(),
                r.clientAttempts(), r.directorySlots(), PEGASUS_DRAIN_NANOS));
    }

    public Collection<Measured> runs() {
        return done.values();
    }
}
