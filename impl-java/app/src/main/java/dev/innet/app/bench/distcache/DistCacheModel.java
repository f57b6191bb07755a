package dev.innet.app.bench.distcache;

import dev.innet.costmodel.OperationClass;
import dev.innet.costmodel.QueueingNetwork;
import dev.innet.costmodel.Saturation;
import dev.innet.costmodel.Station;
import dev.innet.costmodel.Visit;
import dev.innet.sim.Hashing;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The DistCache paper's four mechanisms (§6.1, "Comparison") on {@code racks} storage racks of the testbed's
 * servers and {@code racks} spine switches, priced by the cost model's utilisation law ({@link Saturation}):
 * every server, spine and leaf is a station; the throughput is the highest request rate no station exceeds,
 * in units of one server's throughput. Keys go to servers, and to upper-layer partitions, by two independent
 * hashes. Reads of a cached key go to its copy; writes go to the key's server, which updates every copy
 * (INV, INV_ACK, UPD per copy, as the real DistCache server does: {@link MessagePattern}).
 *
 * <ul>
 *   <li>{@code NoCache}: nothing cached.</li>
 *   <li>{@code CachePartition}: each rack's ToR caches its own rack's hottest keys, all of the switch cache
 *       (2 x objectsPerSwitch per ToR, the same total as DistCache); spines cache nothing (the paper: "the
 *       same as only using NetCache for each rack"). A model-only variant, not a run program.</li>
 *   <li>{@code CacheReplication}: the 2 x racks x objectsPerSwitch hottest keys copied to every spine, reads
 *       spread evenly over them; a write updates all {@code racks} copies. Model-only.</li>
 *   <li>{@code DistCache}: each spine caches the hottest keys of its upper hash partition, each leaf the
 *       hottest keys of its rack; a read of a key cached in both goes to the less loaded copy (the power of
 *       two choices, in its fluid limit: the key's load is routed in small quanta, each to the copy whose
 *       load over its capacity is lower at that moment).</li>
 * </ul>
 * Not modelled: reads that reach the server while a write's phase 1 has invalidated their key's copies
 * (the hit ratio the real run measures shows how many).
 */
public final class DistCacheModel {
    /**
     * The four mechanisms, and {@code DISTCACHE_CACHED_COHERENCE}: a counterfactual DistCache whose server
     * runs the two-phase update for cached keys only, over the copies that exist (as the model-only
     * mechanisms are priced), to measure what the real server's update of both layers on every write costs.
     */
    public enum Mechanism { NOCACHE, CACHE_PARTITION, CACHE_REPLICATION, DISTCACHE, DISTCACHE_CACHED_COHERENCE }

    /** Seed of the upper-layer partition hash, independent of the server placement hash. */
    private static final long UPPER_SEED = 0x2545F491L;
    /** Quanta the power-of-two-choices split divides the two-copy keys' load into. */
    private static final int QUANTA = 200_000;

    private final DistCacheTestbed t;
    private final double invalidationsPerWrite;
    private final double messagesPerCopy;

    /**
     * @param invalidationsPerWrite copies DistCache's server invalidates per write, cached key or not
     *        (measured: {@link MessagePattern#invalidationsPerWrite()})
     * @param messagesPerCopy coherence messages a server handles per copy it updates (measured on the real
     *        DistCache: {@link MessagePattern#messagesPerCopy()})
     */
    public DistCacheModel(DistCacheTestbed t, double invalidationsPerWrite, double messagesPerCopy) {
        if (!(invalidationsPerWrite >= 0) || !(messagesPerCopy >= 0)) {
            throw new IllegalArgumentException("measured message counts must be >= 0");
        }
        this.t = t;
        this.invalidationsPerWrite = invalidationsPerWrite;
        this.messagesPerCopy = messagesPerCopy;
    }

    /** Throughput in servers' throughputs and the station that bounds it. */
    public record Result(double throughput, String bottleneck) {}

    public Result throughput(Mechanism m, int racks, double alpha, double writeRatio) {
        if (racks < 1 || !(writeRatio >= 0 && writeRatio <= 1) || alpha < 0) {
            throw new IllegalArgumentException("racks >= 1, write ratio in [0, 1], zipf >= 0");
        }
        int servers = racks * t.serversPerRack();
        int hot = (int) Math.min(t.modelledHotKeys(), t.keys());
        double[] p = zipfHead(alpha, hot);
        double tail = 1 - Arrays.stream(p).sum();
        // station loads in "server requests" per request of the whole system: servers, then spines, then leaves
        double[] serverLoad = new double[servers];
        double[] spineLoad = new double[racks];
        double[] leafLoad = new double[racks];
        double tailCost = m == Mechanism.DISTCACHE
                ? 1 + writeRatio * invalidationsPerWrite * messagesPerCopy * t.coherenceMessageCost() : 1;
        Arrays.fill(serverLoad, tail * tailCost / servers);
        if (m == Mechanism.DISTCACHE) {
            // the cold keys' writes pass INV and UPD through their spine and leaf too, spread evenly
            double perSwitch = tail * writeRatio * invalidationsPerWrite * t.switchCoherenceCost() / racks;
            Arrays.fill(spineLoad, perSwitch);
            Arrays.fill(leafLoad, perSwitch);
        }
        int[] serverOf = new int[hot];
        int[] spineOf = new int[hot];
        for (int i = 0; i < hot; i++) {
            serverOf[i] = (int) Math.floorMod(Hashing.splitMix64(i), (long) servers);
            spineOf[i] = (int) Math.floorMod(Hashing.splitMix64(i ^ UPPER_SEED), (long) racks);
        }
        boolean[] inUpper = new boolean[hot];
        boolean[] inLower = new boolean[hot];
        int perSwitch = t.objectsPerSwitch();
        switch (m) {
            case NOCACHE -> { }
            case CACHE_PARTITION -> fillHottest(inLower, serverOf, t.serversPerRack(), racks, 2 * perSwitch);
            case CACHE_REPLICATION -> Arrays.fill(inUpper, 0, Math.min(hot, 2 * racks * perSwitch), true);
            case DISTCACHE, DISTCACHE_CACHED_COHERENCE -> {
                fillHottest(inUpper, spineOf, 1, racks, perSwitch);
                fillHottest(inLower, serverOf, t.serversPerRack(), racks, perSwitch);
            }
        }
        double read = 1 - writeRatio;
        List<Integer> twoCopies = new ArrayList<>();
        for (int i = 0; i < hot; i++) {
            int rack = serverOf[i] / t.serversPerRack();
            int copies = (inUpper[i] ? (m == Mechanism.CACHE_REPLICATION ? racks : 1) : 0) + (inLower[i] ? 1 : 0);
            double writes = p[i] * writeRatio;
            if (m == Mechanism.DISTCACHE) {
                // as measured: every write invalidates and updates both layers' possible copies
                serverLoad[serverOf[i]] += writes * (1 + invalidationsPerWrite * messagesPerCopy * t.coherenceMessageCost());
                double perLayer = writes * invalidationsPerWrite * t.switchCoherenceCost(); // INVs and UPDs, half each
                spineLoad[spineOf[i]] += perLayer;
                leafLoad[rack] += perLayer;
            } else {
                // the model-only mechanisms and DistCache's counterfactual: the server updates the copies of
                // cached keys only, one INV and one UPD per copy
                serverLoad[serverOf[i]] += writes * (1 + copies * messagesPerCopy * t.coherenceMessageCost());
                double packets = writes * 2 * t.switchCoherenceCost();
                if (inUpper[i] && m == Mechanism.CACHE_REPLICATION) {
                    // a copy on every spine, reads spread over them
                    for (int s = 0; s < racks; s++) {
                        spineLoad[s] += packets + p[i] * read / racks;
                    }
                } else if (inUpper[i]) {
                    spineLoad[spineOf[i]] += packets;
                }
                if (inLower[i]) {
                    leafLoad[rack] += packets;
                }
            }
            if (copies == 0) {
                serverLoad[serverOf[i]] += p[i] * read;
            } else if (inUpper[i] && inLower[i]) {
                twoCopies.add(i);
            } else if (inLower[i]) {
                leafLoad[rack] += p[i] * read;
            } else if (m != Mechanism.CACHE_REPLICATION) {
                spineLoad[spineOf[i]] += p[i] * read;
            }
        }
        powerOfTwoChoices(twoCopies, p, read, serverOf, spineOf, spineLoad, leafLoad);
        return saturate(serverLoad, spineLoad, leafLoad);
    }

    /** Marks, in each group, the {@code perGroup} hottest keys (keys are ranked hottest first). */
    private static void fillHottest(boolean[] cached, int[] slot, int slotsPerGroup, int groups, int perGroup) {
        int[] taken = new int[groups];
        for (int i = 0; i < cached.length; i++) {
            int g = slot[i] / slotsPerGroup;
            if (taken[g] < perGroup) {
                taken[g]++;
                cached[i] = true;
            }
        }
    }

    private void powerOfTwoChoices(List<Integer> keys, double[] p, double read, int[] serverOf, int[] spineOf,
            double[] spineLoad, double[] leafLoad) {
        double total = keys.stream().mapToDouble(i -> p[i] * read).sum();
        if (total <= 0) {
            return;
        }
        double quantum = total / QUANTA;
        double[] left = new double[keys.size()];
        for (int k = 0; k < left.length; k++) {
            left[k] = p[keys.get(k)] * read;
        }
        boolean any = true;
        while (any) {
            any = false;
            for (int k = 0; k < left.length; k++) {
                if (left[k] <= 0) {
                    continue;
                }
                any = true;
                double q = Math.min(quantum, left[k]);
                left[k] -= q;
                int i = keys.get(k);
                int up = spineOf[i];
                int low = serverOf[i] / t.serversPerRack();
                if (spineLoad[up] <= leafLoad[low]) {
                    spineLoad[up] += q;
                } else {
                    leafLoad[low] += q;
                }
            }
        }
    }

    /** Every station as a cost-model station; one unit of service per server request. */
    private Result saturate(double[] serverLoad, double[] spineLoad, double[] leafLoad) {
        List<Station> stations = new ArrayList<>();
        List<Visit> route = new ArrayList<>();
        add(stations, route, "server ", serverLoad, 1);
        add(stations, route, "spine ", spineLoad, 1 / t.cacheNodeCapacity());
        add(stations, route, "leaf ", leafLoad, 1 / t.cacheNodeCapacity());
        // One class whose route carries each station's demand per request: the utilisation law only needs
        // the demands (this network is priced for saturation, not simulated for latencies).
        Saturation s = Saturation.of(new QueueingNetwork(stations, List.of(new OperationClass("request", 1, route))));
        return new Result(s.opsPerSecond(), s.bottleneck());
    }

    private static void add(List<Station> stations, List<Visit> route, String name, double[] load, double unit) {
        for (int k = 0; k < load.length; k++) {
            route.add(new Visit(stations.size(), load[k] * unit));
            stations.add(Station.fifo(name + (k + 1), Station.Service.EXPONENTIAL));
        }
    }

    /** The hottest key's share of requests under zipf {@code alpha} over the testbed's keys. */
    public double hottestShare(double alpha) {
        return zipfHead(alpha, 1)[0];
    }

    /**
     * The probabilities of the {@code head} hottest of the testbed's keys under zipf {@code alpha}: the head
     * summed exactly, the rest of the normaliser by the Euler-Maclaurin integral.
     */
    double[] zipfHead(double alpha, int head) {
        long n = t.keys();
        double[] w = new double[head];
        double sum = 0;
        for (int i = 0; i < head; i++) {
            w[i] = Math.pow(i + 1, -alpha);
            sum += w[i];
        }
        if (n > head) {
            double a = head + 0.5;
            double b = n + 0.5;
            sum += alpha == 1 ? Math.log(b / a) : (Math.pow(b, 1 - alpha) - Math.pow(a, 1 - alpha)) / (1 - alpha);
        }
        for (int i = 0; i < head; i++) {
            w[i] /= sum;
        }
        return w;
    }
}
